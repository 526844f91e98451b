/**
 * The seeded catalogue: 45 anime and 25 manga (adult ids from seedFacts.ts),
 * 12 categories, episodes, chapters, streamers and streaming links, mappings,
 * media relationships, characters, people, producers, quotes and videos.
 * Deterministic: the same records, ids and dates on every start and reset.
 */
import type { Ref, SeedTarget } from './model.ts';
import { MEDIA_SEED } from './seedFacts.ts';

export const ref = (type: string, id: number | string): Ref => ({ type, id: String(id) });

/** An ISO instant `days` days after a base date, at a fixed time of day derived from `salt`. */
export function at(base: string, days: number, salt = 0): string {
  const ms = Date.parse(`${base}T00:00:00.000Z`) + days * 86_400_000 + ((salt * 7_919_113) % 86_400_000);
  return new Date(ms).toISOString();
}

function image(kind: 'anime' | 'manga', field: 'poster_images' | 'cover_images', id: number): Record<string, unknown> {
  const sizes = field === 'poster_images' ? (['tiny', 'large', 'small', 'medium'] as const) : (['tiny', 'large', 'small'] as const);
  const dimensions: Record<string, { width: number; height: number }> =
    field === 'poster_images'
      ? { tiny: { width: 110, height: 156 }, large: { width: 550, height: 780 }, small: { width: 284, height: 402 }, medium: { width: 390, height: 554 } }
      : { tiny: { width: 840, height: 200 }, large: { width: 3360, height: 800 }, small: { width: 1680, height: 400 } };
  const urls = Object.fromEntries([...sizes, 'original'].map((size) => [size, `https://media.twin.test/${kind}/${field}/${id}/${size}.jpg`]));
  return { ...urls, meta: { dimensions: Object.fromEntries(sizes.map((size) => [size, dimensions[size]])) } };
}

/** ratingFrequencies as the real service writes them: keys "2".."20", values as strings. */
function frequencies(id: number): Record<string, string> {
  const result: Record<string, string> = {};
  for (let score = 2; score <= 20; score += 1) result[String(score)] = String(((id * 37 + score * score * 11) % 97) * (score % 2 === 0 ? 9 : 1));
  return result;
}

interface MediaSeed {
  readonly title: string;
  readonly en?: string;
  readonly ja?: string;
  readonly subtype: string;
  readonly status: string;
  readonly start: string | null;
  readonly end: string | null;
  readonly ageRating: string;
  readonly guide: string;
  /** Episodes or chapters. */
  readonly units: number | null;
  readonly unitLength?: number | null;
  readonly volumes?: number | null;
  readonly synopsis: string;
  readonly categories: readonly number[];
}

const ANIME_TITLES: readonly MediaSeed[] = [
  {
    title: 'Cowboy Bebop',
    ja: 'カウボーイビバップ',
    subtype: 'TV',
    status: 'finished',
    start: '1998-04-03',
    end: '1999-04-24',
    ageRating: 'R',
    guide: '17+ (violence & profanity)',
    units: 26,
    unitLength: 25,
    synopsis: 'In the year 2071, humanity has colonized several of the planets and moons of the solar system.',
    categories: [1, 5, 6, 4],
  },
  {
    title: 'Cowboy Bebop: Tengoku no Tobira',
    en: 'Cowboy Bebop: The Movie',
    subtype: 'movie',
    status: 'finished',
    start: '2001-09-01',
    end: '2001-09-01',
    ageRating: 'R',
    guide: '17+ (violence & profanity)',
    units: 1,
    unitLength: 115,
    synopsis: 'Another day, another bounty for the crew of the Bebop.',
    categories: [1, 5, 6],
  },
  {
    title: 'Trigun',
    ja: 'トライガン',
    subtype: 'TV',
    status: 'finished',
    start: '1998-04-01',
    end: '1998-09-30',
    ageRating: 'PG',
    guide: 'Teens 13 or older',
    units: 26,
    unitLength: 24,
    synopsis: 'Vash the Stampede is the man with a $$60,000,000,000 bounty on his head.',
    categories: [1, 2, 3, 5],
  },
  {
    title: 'Witch Hunter Robin',
    subtype: 'TV',
    status: 'finished',
    start: '2002-07-02',
    end: '2002-12-24',
    ageRating: 'PG',
    guide: 'Teens 13 or older',
    units: 26,
    unitLength: 25,
    synopsis: 'Robin Sena is a powerful craft user drafted into the STNJ.',
    categories: [1, 7, 4],
  },
  {
    title: 'Beet the Vandel Buster',
    subtype: 'TV',
    status: 'finished',
    start: '2004-09-30',
    end: '2005-09-29',
    ageRating: 'PG',
    guide: 'Children',
    units: 52,
    unitLength: 23,
    synopsis: 'It is the dark century and the people are suffering under the rule of the devil Vandel.',
    categories: [2, 11],
  },
  {
    title: 'Eyeshield 21',
    subtype: 'TV',
    status: 'finished',
    start: '2005-04-06',
    end: '2008-03-19',
    ageRating: 'PG',
    guide: 'Teens 13 or older',
    units: 145,
    unitLength: 23,
    synopsis: 'Sena is like any other shy kid starting high school.',
    categories: [3, 9],
  },
  {
    title: 'Crimson Lantern',
    subtype: 'OVA',
    status: 'finished',
    start: '2006-03-10',
    end: '2006-06-10',
    ageRating: 'R18',
    guide: 'Adult content',
    units: 2,
    unitLength: 30,
    synopsis: 'An adult-only title of the twin catalogue.',
    categories: [8, 12],
  },
  {
    title: 'Honey and Clover',
    subtype: 'TV',
    status: 'finished',
    start: '2005-04-15',
    end: '2005-09-27',
    ageRating: 'PG',
    guide: 'Teens 13 or older',
    units: 24,
    unitLength: 23,
    synopsis: 'Yuuta Takemoto, a sophomore at an arts college, shares a cheap apartment with two seniors.',
    categories: [3, 4, 8, 10],
  },
  {
    title: 'Hungry Heart: Wild Striker',
    subtype: 'TV',
    status: 'finished',
    start: '2002-09-11',
    end: '2003-09-10',
    ageRating: 'PG',
    guide: 'Teens 13 or older',
    units: 52,
    unitLength: 23,
    synopsis: 'As the younger brother of a famous soccer player, Kanou Kyousuke has to live in his shadow.',
    categories: [3, 9],
  },
  {
    title: 'Initial D Fourth Stage',
    subtype: 'TV',
    status: 'finished',
    start: '2004-04-17',
    end: '2006-02-18',
    ageRating: 'PG',
    guide: 'Teens 13 or older',
    units: 24,
    unitLength: 27,
    synopsis: 'Takumi Fujiwara finally joins Ryousuke and Keisuke on a racing team.',
    categories: [1, 4, 9],
  },
  {
    title: 'Monster',
    ja: 'モンスター',
    subtype: 'TV',
    status: 'finished',
    start: '2004-04-07',
    end: '2005-09-28',
    ageRating: 'R',
    guide: '17+ (violence & profanity)',
    units: 74,
    unitLength: 24,
    synopsis: 'Dr. Kenzo Tenma, an elite neurosurgeon, saves a boy instead of the mayor.',
    categories: [4, 7],
  },
  {
    title: 'Choujikuu Yousai Macross',
    en: 'Macross',
    ja: '超時空要塞マクロス',
    subtype: 'TV',
    status: 'finished',
    start: '1982-10-03',
    end: '1983-06-26',
    ageRating: 'PG',
    guide: 'Teens 13 or older',
    units: 36,
    unitLength: 26,
    synopsis: 'After a mysterious spaceship crashes into Earth, humanity rebuilds it.',
    categories: [1, 5, 6, 8],
  },
  {
    title: 'Velvet Hours',
    subtype: 'OVA',
    status: 'finished',
    start: '2009-08-21',
    end: '2009-10-21',
    ageRating: 'R18',
    guide: 'Adult content',
    units: 2,
    unitLength: 28,
    synopsis: 'An adult-only title of the twin catalogue.',
    categories: [8, 12],
  },
];

const GENERATED_SUBTYPES = ['TV', 'TV', 'movie', 'OVA', 'ONA', 'special'] as const;
const GENERATED_STATUSES = ['finished', 'finished', 'finished', 'current', 'upcoming', 'tba'] as const;

function generatedAnime(id: number): MediaSeed {
  if (id === 29) {
    return {
      title: 'Midnight Bloom',
      subtype: 'ONA',
      status: 'finished',
      start: '2015-05-05',
      end: '2015-06-05',
      ageRating: 'R18',
      guide: 'Adult content',
      units: 4,
      unitLength: 15,
      synopsis: 'An adult-only title of the twin catalogue.',
      categories: [8, 12],
    };
  }
  const status = id >= 40 ? (GENERATED_STATUSES[id % GENERATED_STATUSES.length] ?? 'finished') : 'finished';
  const year = 2005 + (id % 20);
  const month = String((id % 12) + 1).padStart(2, '0');
  const start = status === 'tba' ? null : `${year}-${month}-0${(id % 9) + 1}`;
  return {
    title: `Twin Series ${id}`,
    ja: `ツインシリーズ${id}`,
    subtype: GENERATED_SUBTYPES[id % GENERATED_SUBTYPES.length] ?? 'TV',
    status,
    start,
    end: status === 'finished' && start ? `${year}-${month}-2${id % 9}` : null,
    ageRating: id % 5 === 0 ? 'R' : id % 3 === 0 ? 'G' : 'PG',
    guide: id % 5 === 0 ? '17+ (violence & profanity)' : id % 3 === 0 ? 'All Ages' : 'Teens 13 or older',
    units: status === 'finished' ? 12 + (id % 4) * 12 : null,
    unitLength: 24,
    synopsis: `A generated title of the twin catalogue, number ${id}.`,
    categories: [(id % 11) + 1, ((id * 3) % 11) + 1].filter((value, index, all) => all.indexOf(value) === index),
  };
}

const MANGA_TITLES: readonly MediaSeed[] = [
  {
    title: 'Monster',
    ja: 'MONSTER',
    subtype: 'manga',
    status: 'finished',
    start: '1994-12-05',
    end: '2001-12-20',
    ageRating: 'R',
    guide: 'Mature',
    units: 162,
    volumes: 18,
    synopsis: 'Kenzo Tenma, a renowned Japanese neurosurgeon working in post-war Germany.',
    categories: [4, 7],
  },
  {
    title: 'Berserk',
    ja: 'ベルセルク',
    subtype: 'manga',
    status: 'current',
    start: '1989-08-25',
    end: null,
    ageRating: 'R',
    guide: 'Mature',
    units: null,
    volumes: null,
    synopsis: 'Guts, a former mercenary now known as the Black Swordsman, is out for revenge.',
    categories: [1, 2, 11],
  },
  {
    title: 'Yotsuba&!',
    subtype: 'manga',
    status: 'current',
    start: '2003-03-21',
    end: null,
    ageRating: 'G',
    guide: 'All Ages',
    units: null,
    volumes: null,
    synopsis: 'Yotsuba is a strange little girl with a big personality.',
    categories: [3, 10],
  },
  {
    title: 'Vagabond',
    subtype: 'manga',
    status: 'current',
    start: '1998-09-03',
    end: null,
    ageRating: 'R',
    guide: 'Mature',
    units: null,
    volumes: null,
    synopsis: 'Growing up in 16th century Japan, Shinmen Takezou is shunned by the local villagers.',
    categories: [1, 4],
  },
  {
    title: 'Scarlet Ledger',
    subtype: 'doujin',
    status: 'finished',
    start: '2010-02-14',
    end: '2010-02-14',
    ageRating: 'R18',
    guide: 'Adult content',
    units: 2,
    volumes: 1,
    synopsis: 'An adult-only title of the twin catalogue.',
    categories: [8, 12],
  },
  {
    title: 'Pluto',
    subtype: 'manga',
    status: 'finished',
    start: '2003-09-09',
    end: '2009-04-05',
    ageRating: 'PG',
    guide: 'Teens',
    units: 65,
    volumes: 8,
    synopsis: 'Robots and humans coexist; someone is destroying the seven great robots.',
    categories: [5, 7, 4],
  },
];

const MANGA_SUBTYPES = ['manga', 'manga', 'manhwa', 'manhua', 'novel', 'oneshot'] as const;

function generatedManga(id: number): MediaSeed {
  const year = 1995 + (id % 25);
  const month = String((id % 12) + 1).padStart(2, '0');
  const finished = id % 3 !== 0;
  return {
    title: `Twin Manga ${id}`,
    ja: `ツイン漫画${id}`,
    subtype: MANGA_SUBTYPES[id % MANGA_SUBTYPES.length] ?? 'manga',
    status: finished ? 'finished' : 'current',
    start: `${year}-${month}-1${id % 9}`,
    end: finished ? `${year + 3}-${month}-1${id % 9}` : null,
    ageRating: id % 4 === 0 ? 'R' : 'PG',
    guide: id % 4 === 0 ? 'Mature' : 'Teens',
    units: finished ? 40 + id : null,
    volumes: finished ? 4 + (id % 6) : null,
    synopsis: `A generated manga of the twin catalogue, number ${id}.`,
    categories: [((id * 5) % 11) + 1, ((id * 7) % 11) + 1].filter((value, index, all) => all.indexOf(value) === index),
  };
}

function slugify(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/** Average ratings, user counts and both ranks, derived from the id so every start agrees. */
function popularity(id: number, adult: boolean): { averageRating: string; userCount: number } {
  const averageRating = (60 + ((id * 53) % 3000) / 100).toFixed(2);
  const userCount = adult ? 150 + id : Math.max(200, 60_000 - id * 1_237 + ((id * 311) % 900));
  return { averageRating, userCount };
}

/**
 * One kind's media rows, named titles first and generated ones after. Kept whole: the row literal is
 * the shape of a media resource, attribute by attribute, and reads best as one record.
 */
function seedMedia(target: SeedTarget, kind: 'anime' | 'manga'): void {
  const count = kind === 'anime' ? MEDIA_SEED.animeCount : MEDIA_SEED.mangaCount;
  const adult: readonly string[] = kind === 'anime' ? MEDIA_SEED.adultAnimeIds : MEDIA_SEED.adultMangaIds;
  const seeds = Array.from({ length: count }, (_, i) => {
    const id = i + 1;
    const known = kind === 'anime' ? ANIME_TITLES[i] : MANGA_TITLES[i];
    return { id, seed: known ?? (kind === 'anime' ? generatedAnime(id) : generatedManga(id)) };
  });
  for (const { id, seed } of seeds) {
    if ((seed.ageRating === 'R18') !== adult.includes(String(id))) throw new Error(`media seed: ${kind} ${id} contradicts seedFacts.ts on adult content`);
  }
  const stats = seeds.map(({ id, seed }) => ({ id, ...popularity(id, seed.ageRating === 'R18') }));
  const popularityRank = new Map([...stats].sort((a, b) => b.userCount - a.userCount || a.id - b.id).map((entry, index) => [entry.id, index + 1]));
  const ratingRank = new Map(
    [...stats].sort((a, b) => Number(b.averageRating) - Number(a.averageRating) || a.id - b.id).map((entry, index) => [entry.id, index + 1]),
  );
  for (const { id, seed } of seeds) {
    const stat = stats[id - 1];
    const created = at('2013-02-20', id, id);
    const titles: Record<string, string> = { en: seed.en ?? seed.title, en_jp: seed.title };
    if (seed.ja) titles['ja_jp'] = seed.ja;
    const common: Record<string, unknown> = {
      createdAt: created,
      updatedAt: at('2024-06-01', id, id * 3),
      slug: slugify(seed.en ?? seed.title),
      synopsis: seed.synopsis,
      description: seed.synopsis,
      coverImageTopOffset: (id * 17) % 400,
      titles,
      canonicalTitle: seed.en ?? seed.title,
      abbreviatedTitles: seed.en && seed.en !== seed.title ? [seed.title] : [],
      averageRating: seed.status === 'tba' || seed.status === 'upcoming' ? null : (stat?.averageRating ?? null),
      ratingFrequencies: frequencies(id),
      userCount: stat?.userCount ?? 0,
      favoritesCount: Math.floor((stat?.userCount ?? 0) / 12),
      startDate: seed.start,
      endDate: seed.end,
      nextRelease: seed.status === 'current' ? '2025-01-08T15:00:00.000Z' : null,
      popularityRank: popularityRank.get(id) ?? null,
      ratingRank: ratingRank.get(id) ?? null,
      ageRating: seed.ageRating,
      ageRatingGuide: seed.guide,
      subtype: seed.subtype,
      status: seed.status,
      tba: seed.status === 'tba' ? 'Sometime soon' : '',
      posterImage: image(kind, 'poster_images', id),
      coverImage: image(kind, 'cover_images', id),
    };
    const specific: Record<string, unknown> =
      kind === 'anime'
        ? { episodeCount: seed.units, episodeLength: seed.unitLength ?? null, youtubeVideoId: id === 1 ? 'qig4KOK2R2g' : '' }
        : { chapterCount: seed.units, volumeCount: seed.volumes ?? null, serialization: id === 1 ? 'Big Comic Original' : null };
    target.put(kind, String(id), { ...common, ...specific }, { categories: seed.categories.map((category) => ref('categories', category)) });
  }
}

const CATEGORIES: readonly (readonly [string, string, number | null, boolean])[] = [
  ['Action', 'Fights, chases and daring feats.', null, false],
  ['Adventure', 'Journeys into the unknown.', null, false],
  ['Comedy', 'Stories that aim to make you laugh.', null, false],
  ['Drama', 'Serious stories of conflict and emotion.', null, false],
  ['Sci-Fi', 'Science fiction: technology and the future.', null, false],
  ['Space', 'Set among the stars.', 5, false],
  ['Mystery', 'Puzzles, crimes and secrets.', null, false],
  ['Romance', 'Love and relationships.', null, false],
  ['Sports', 'Competition and teamwork.', null, false],
  ['Slice of Life', 'Everyday life, told gently.', null, false],
  ['Fantasy', 'Magic and other worlds.', null, false],
  ['Ecchi', 'Suggestive content.', null, true],
];

const EPISODE_TITLES = [
  'Asteroid Blues',
  'Stray Dog Strut',
  'Honky Tonk Women',
  'Gateway Shuffle',
  'Ballad of Fallen Angels',
  'Sympathy for the Devil',
  'Heavy Metal Queen',
  'Waltz for Venus',
  'Jamming with Edward',
  'Ganymede Elegy',
  'Toys in the Attic',
  'Jupiter Jazz (Part 1)',
];

/**
 * Episodes and chapters of the seeded titles. One piece: the unit ids run on across titles (a shared
 * counter), so the calls read as the numbered list they produce.
 */
function seedUnits(target: SeedTarget): void {
  let episodeId = 0;
  const episodes = (animeId: number, count: number, titleOf: (n: number) => string, airdate: string): void => {
    for (let number = 1; number <= count; number += 1) {
      episodeId += 1;
      const title = titleOf(number);
      target.put(
        'episodes',
        String(episodeId),
        {
          createdAt: at('2016-01-10', episodeId, episodeId),
          updatedAt: at('2023-03-01', episodeId, episodeId),
          synopsis: `Episode ${number}.`,
          description: `Episode ${number}.`,
          titles: { en_jp: title, en_us: title },
          canonicalTitle: title,
          seasonNumber: 1,
          number,
          relativeNumber: number,
          airdate: at(airdate, (number - 1) * 7).slice(0, 10),
          length: 24,
          thumbnail: { original: `https://media.twin.test/episodes/thumbnails/${episodeId}/original.jpg`, meta: { dimensions: {} } },
        },
        { media: ref('anime', animeId) },
      );
    }
  };
  const bebop = MEDIA_SEED.animeWithEpisodes;
  episodes(Number(bebop.id), bebop.episodes, (n) => EPISODE_TITLES[n - 1] ?? `Session ${n}`, '1998-04-03');
  episodes(3, 3, (n) => `Trigun Episode ${n}`, '1998-04-01');
  episodes(7, 2, (n) => `Crimson Lantern Part ${n}`, '2006-03-10');
  episodes(12, 3, (n) => `Macross Episode ${n}`, '1982-10-03');

  let chapterId = 0;
  const chapters = (mangaId: number, count: number, published: string): void => {
    for (let number = 1; number <= count; number += 1) {
      chapterId += 1;
      target.put(
        'chapters',
        String(chapterId),
        {
          createdAt: at('2017-05-01', chapterId, chapterId),
          updatedAt: at('2023-04-01', chapterId, chapterId),
          synopsis: null,
          description: null,
          titles: { en_jp: `Chapter ${number}` },
          canonicalTitle: `Chapter ${number}`,
          volumeNumber: Math.ceil(number / 9),
          number,
          published: at(published, (number - 1) * 14).slice(0, 10),
          length: 20,
          thumbnail: null,
        },
        { manga: ref('manga', mangaId) },
      );
    }
  };
  const monster = MEDIA_SEED.mangaWithChapters;
  chapters(Number(monster.id), monster.chapters, '1994-12-05');
  chapters(5, 2, '2010-02-14');
}

/** Rows of a simple table: `[id, attributes, links]`, timestamps added. */
function putAll(
  target: SeedTarget,
  type: string,
  rows: readonly (readonly [Record<string, unknown>, Record<string, Ref | Ref[] | null>?])[],
  base: string,
): void {
  rows.forEach(([attributes, links], index) => {
    const id = index + 1;
    target.put(type, String(id), { createdAt: at(base, id * 3, id), updatedAt: at(base, id * 3 + 200, id), ...attributes }, links ?? {});
  });
}

/**
 * The catalogue, top to bottom: categories, anime and manga, their units, then streaming, characters,
 * people, producers and the links between them. One function because it reads as the data it builds:
 * each block links by id to rows put above it, in the order the suites' ids count from.
 */
export function seedCatalogue(target: SeedTarget): void {
  CATEGORIES.forEach(([title, description, parent, nsfw], index) => {
    const id = index + 1;
    target.put(
      'categories',
      String(id),
      {
        createdAt: at('2017-05-31', id, id),
        updatedAt: at('2017-05-31', id + 30, id),
        slug: slugify(title),
        title,
        description,
        nsfw,
        image: null,
      },
      { parent: parent === null ? null : ref('categories', parent) },
    );
  });
  seedMedia(target, 'anime');
  seedMedia(target, 'manga');
  seedUnits(target);

  putAll(
    target,
    'streamers',
    ['Crunchyroll', 'Funimation', 'Hulu', 'Netflix', 'HIDIVE', 'Amazon'].map((siteName) => [{ siteName, logo: null }] as const),
    '2018-03-01',
  );
  putAll(
    target,
    'streamingLinks',
    [
      [
        { url: 'https://www.crunchyroll.com/cowboy-bebop', subs: ['en'], dubs: ['ja'] },
        { streamer: ref('streamers', 1), media: ref('anime', 1) },
      ],
      [
        { url: 'https://www.funimation.com/shows/cowboy-bebop/', subs: ['en'], dubs: ['en', 'ja'] },
        { streamer: ref('streamers', 2), media: ref('anime', 1) },
      ],
      [
        { url: 'https://www.hulu.com/series/trigun', subs: ['en'], dubs: ['en'] },
        { streamer: ref('streamers', 3), media: ref('anime', 3) },
      ],
      [
        { url: 'https://www.netflix.com/title/monster', subs: ['en'], dubs: ['ja'] },
        { streamer: ref('streamers', 4), media: ref('anime', 11) },
      ],
      [
        { url: 'https://www.hidive.com/tv/macross', subs: ['en'], dubs: ['ja'] },
        { streamer: ref('streamers', 5), media: ref('anime', 12) },
      ],
      [
        { url: 'https://www.hidive.com/tv/crimson-lantern', subs: ['en'], dubs: ['ja'] },
        { streamer: ref('streamers', 5), media: ref('anime', 7) },
      ],
    ],
    '2018-04-01',
  );
  putAll(
    target,
    'mappings',
    [
      ...Array.from(
        { length: 12 },
        (_, i) =>
          [
            { externalSite: 'myanimelist/anime', externalId: String([1, 5, 6, 7, 86, 15, 900, 16, 17, 18, 19, 1088][i]) },
            { item: ref('anime', i + 1) },
          ] as const,
      ),
      ...Array.from(
        { length: 6 },
        (_, i) => [{ externalSite: 'myanimelist/manga', externalId: String([1, 2, 104, 656, 900, 477][i]) }, { item: ref('manga', i + 1) }] as const,
      ),
      [{ externalSite: 'anilist/anime', externalId: '1' }, { item: ref('anime', 1) }],
    ],
    '2018-05-01',
  );
  putAll(
    target,
    'mediaRelationships',
    [
      [{ role: 'side_story' }, { source: ref('anime', 1), destination: ref('anime', 2) }],
      [{ role: 'parent_story' }, { source: ref('anime', 2), destination: ref('anime', 1) }],
      [{ role: 'adaptation' }, { source: ref('anime', 11), destination: ref('manga', 1) }],
      [{ role: 'adaptation' }, { source: ref('manga', 1), destination: ref('anime', 11) }],
      [{ role: 'other' }, { source: ref('anime', 6), destination: ref('anime', 7) }],
      [{ role: 'sequel' }, { source: ref('anime', 12), destination: ref('anime', 14) }],
    ],
    '2018-06-01',
  );

  const characterNames = [
    'Spike Spiegel',
    'Faye Valentine',
    'Jet Black',
    'Edward Wong Hau Pepelu Tivrusky IV',
    'Ein',
    'Vash the Stampede',
    'Kenzo Tenma',
    'Johan Liebert',
    'Robin Sena',
    'Sena Kobayakawa',
  ];
  const primary = [1, 1, 1, 1, 1, 3, 11, 11, 4, 6];
  putAll(
    target,
    'characters',
    characterNames.map((name, i) => [
      {
        slug: slugify(name),
        names: { en: name },
        canonicalName: name,
        otherNames: [],
        malId: 1 + i,
        description: `${name} of the twin catalogue.`,
        image: null,
      },
      { primaryMedia: ref('anime', primary[i] ?? 1) },
    ]),
    '2017-07-01',
  );
  const peopleNames = [
    'Shinichirou Watanabe',
    'Yoko Kanno',
    'Kouichi Yamadera',
    'Megumi Hayashibara',
    'Unshou Ishizuka',
    'Naoki Urasawa',
    'Masayuki Kojima',
    'Yasuhiro Nightow',
  ];
  putAll(
    target,
    'people',
    peopleNames.map((name, i) => [
      { slug: slugify(name), names: { en: name }, canonicalName: name, otherNames: [], malId: 100 + i, description: null, birthday: null, image: null },
    ]),
    '2017-08-01',
  );
  putAll(
    target,
    'producers',
    ['Sunrise', 'Bandai Visual', 'Madhouse', 'Bones', 'Shogakukan', 'Viz Media', 'Funimation'].map((name) => [{ slug: slugify(name), name }]),
    '2017-09-01',
  );
  putAll(
    target,
    'mediaCharacters',
    [
      [{ role: 'main' }, { media: ref('anime', 1), character: ref('characters', 1) }],
      [{ role: 'main' }, { media: ref('anime', 1), character: ref('characters', 2) }],
      [{ role: 'main' }, { media: ref('anime', 1), character: ref('characters', 3) }],
      [{ role: 'supporting' }, { media: ref('anime', 1), character: ref('characters', 4) }],
      [{ role: 'supporting' }, { media: ref('anime', 1), character: ref('characters', 5) }],
      [{ role: 'main' }, { media: ref('anime', 3), character: ref('characters', 6) }],
      [{ role: 'main' }, { media: ref('anime', 11), character: ref('characters', 7) }],
      [{ role: 'main' }, { media: ref('anime', 11), character: ref('characters', 8) }],
      [{ role: 'main' }, { media: ref('manga', 1), character: ref('characters', 7) }],
      [{ role: 'main' }, { media: ref('manga', 1), character: ref('characters', 8) }],
      [{ role: 'main' }, { media: ref('anime', 4), character: ref('characters', 9) }],
      [{ role: 'main' }, { media: ref('anime', 6), character: ref('characters', 10) }],
    ],
    '2017-10-01',
  );
  putAll(
    target,
    'characterVoices',
    [
      [{ locale: 'ja_jp' }, { mediaCharacter: ref('mediaCharacters', 1), person: ref('people', 3), licensor: null }],
      [{ locale: 'ja_jp' }, { mediaCharacter: ref('mediaCharacters', 2), person: ref('people', 4), licensor: null }],
      [{ locale: 'ja_jp' }, { mediaCharacter: ref('mediaCharacters', 3), person: ref('people', 5), licensor: null }],
    ],
    '2017-10-15',
  );
  putAll(
    target,
    'mediaStaff',
    [
      [{ role: 'Director' }, { media: ref('anime', 1), person: ref('people', 1) }],
      [{ role: 'Music' }, { media: ref('anime', 1), person: ref('people', 2) }],
      [{ role: 'Director' }, { media: ref('anime', 11), person: ref('people', 7) }],
      [{ role: 'Story & Art' }, { media: ref('manga', 1), person: ref('people', 6) }],
      [{ role: 'Original Creator' }, { media: ref('anime', 3), person: ref('people', 8) }],
    ],
    '2017-11-01',
  );
  putAll(
    target,
    'mediaProductions',
    [
      [{ role: 'studio' }, { media: ref('anime', 1), company: ref('producers', 1) }],
      [{ role: 'producer' }, { media: ref('anime', 1), company: ref('producers', 2) }],
      [{ role: 'licensor' }, { media: ref('anime', 1), company: ref('producers', 7) }],
      [{ role: 'studio' }, { media: ref('anime', 11), company: ref('producers', 3) }],
      [{ role: 'studio' }, { media: ref('anime', 4), company: ref('producers', 1) }],
      [{ role: 'serialization' }, { media: ref('manga', 1), company: ref('producers', 5) }],
      [{ role: 'licensor' }, { media: ref('manga', 1), company: ref('producers', 6) }],
    ],
    '2017-12-01',
  );
  putAll(
    target,
    'quotes',
    [
      [
        { content: 'Whatever happens, happens.', likesCount: 42 },
        { media: ref('anime', 1), character: ref('characters', 1) },
      ],
      [
        { content: 'Everyone is equal in the face of death.', likesCount: 17 },
        { media: ref('anime', 11), character: ref('characters', 7) },
      ],
    ],
    '2018-01-01',
  );
  putAll(
    target,
    'videos',
    [
      [
        { url: 'https://www.crunchyroll.com/cowboy-bebop/episode-1', availableRegions: ['US', 'CA'], subLang: 'en', dubLang: 'ja', embedData: {} },
        { episode: ref('episodes', 1), streamer: ref('streamers', 1) },
      ],
      [
        { url: 'https://www.funimation.com/shows/cowboy-bebop/asteroid-blues/', availableRegions: ['US'], subLang: 'en', dubLang: 'en', embedData: {} },
        { episode: ref('episodes', 1), streamer: ref('streamers', 2) },
      ],
    ],
    '2018-02-01',
  );
}
