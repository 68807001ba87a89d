/**
 * What a prompt asks to see, read word by word: time of day, weather, landscape, objects and colours.
 * The scene painter turns this into vector art. Words it does not know simply do not change the scene;
 * the seed varies everything the prompt leaves open.
 */
import { PromptWords } from './promptWords.js';
import { seededRandom } from './seededRandom.js';

export type TimeOfDay = 'dawn' | 'day' | 'sunset' | 'night';
export type Weather = 'clear' | 'cloudy' | 'rain' | 'snow' | 'fog' | 'storm';
export type Land =
  'mountains' | 'hills' | 'desert' | 'city' | 'forest' | 'ocean' | 'beach' | 'lake' | 'plains';
export type SceneObject =
  | 'sun'
  | 'moon'
  | 'stars'
  | 'trees'
  | 'houses'
  | 'boat'
  | 'birds'
  | 'castle'
  | 'flowers'
  | 'lighthouse'
  | 'aurora'
  | 'rainbow';

export interface Scene {
  time: TimeOfDay;
  weather: Weather;
  land: Land;
  /** A second landform behind the first (e.g. mountains behind a lake). */
  backdrop: 'mountains' | 'hills' | 'skyline' | 'none';
  water: boolean;
  objects: Set<SceneObject>;
  /**
   * Colours named in the prompt (hex), attached to what they describe: "purple sky", "green hills",
   * "turquoise water"; a colour before anything else ("a red house") is the accent for objects.
   * `first` is the first colour named at all (a light overall tint).
   */
  colors: { sky?: string; land?: string; water?: string; accent?: string; first?: string };
  /** Season tint. */
  season: 'spring' | 'summer' | 'autumn' | 'winter';
  /** 0 calm .. 1 dramatic: cloud count, contrast. */
  drama: number;
  /** Seed for everything the painter draws at random (each layer derives its own stream). */
  seed: number;
}

export const COLOR_WORDS: Record<string, string> = {
  red: '#d43a2f',
  crimson: '#b0203a',
  orange: '#f08a24',
  yellow: '#f2d13a',
  gold: '#e3b23c',
  golden: '#e3b23c',
  green: '#3f9b4a',
  emerald: '#1f9d6b',
  teal: '#1f8f8f',
  cyan: '#35c4d6',
  blue: '#2f6fd0',
  navy: '#1d2f6b',
  purple: '#7d3cb5',
  violet: '#8a4fd8',
  magenta: '#c2368f',
  pink: '#ee7fb0',
  brown: '#7a5133',
  white: '#f2f2f2',
  black: '#141414',
  gray: '#8a8f96',
  grey: '#8a8f96',
  silver: '#b8bec6',
  turquoise: '#2fc0b0',
};

export function sceneFromPrompt(prompt: string, seed: number): Scene {
  const p = new PromptWords(prompt);
  const random = seededRandom(seed, prompt);

  const time: TimeOfDay = p.has(
    'night',
    'midnight',
    'moon',
    'moonlight',
    'moonlit',
    'starry',
    'stars',
    'dark',
  )
    ? 'night'
    : p.has('sunset', 'dusk', 'evening', 'twilight', 'golden hour')
      ? 'sunset'
      : p.has('dawn', 'sunrise', 'morning', 'daybreak')
        ? 'dawn'
        : p.has('noon', 'sunny', 'day', 'daylight', 'midday', 'afternoon', 'bright')
          ? 'day'
          : random.pick<TimeOfDay>(['day', 'day', 'sunset', 'dawn']);

  const weather: Weather = p.has('storm', 'thunder', 'thunderstorm', 'lightning', 'stormy', 'tempest')
    ? 'storm'
    : p.has('rain', 'rainy', 'raining', 'drizzle')
      ? 'rain'
      : p.has('snow', 'snowy', 'snowing', 'blizzard', 'snowfall')
        ? 'snow'
        : p.has('fog', 'foggy', 'mist', 'misty', 'haze', 'hazy')
          ? 'fog'
          : p.has('cloud', 'cloudy', 'overcast')
            ? 'cloudy'
            : 'clear';

  const land: Land =
    p.first(['city', 'town', 'skyline', 'downtown', 'street', 'village'] as const) !== undefined
      ? 'city'
      : p.has('desert', 'dune', 'sand', 'sahara', 'canyon')
        ? 'desert'
        : p.has('beach', 'shore', 'coast', 'island', 'tropical')
          ? 'beach'
          : p.has('ocean', 'sea', 'waves', 'seascape', 'harbor', 'harbour')
            ? 'ocean'
            : p.has('lake', 'pond', 'river', 'reflection')
              ? 'lake'
              : p.has('forest', 'woods', 'jungle', 'woodland', 'tree', 'pine')
                ? 'forest'
                : p.has('mountain', 'alps', 'peak', 'volcano', 'cliff', 'glacier')
                  ? 'mountains'
                  : p.has('hill', 'meadow', 'valley', 'countryside', 'farm', 'field')
                    ? 'hills'
                    : p.has('plain', 'prairie', 'grassland', 'savanna')
                      ? 'plains'
                      : random.pick<Land>(['mountains', 'hills', 'lake', 'forest', 'ocean']);

  const backdrop: Scene['backdrop'] = p.has('mountain', 'alps', 'peak', 'volcano', 'glacier')
    ? 'mountains'
    : land === 'city'
      ? 'skyline'
      : land === 'ocean' || land === 'beach' || land === 'desert'
        ? 'none'
        : p.has('hill')
          ? 'hills'
          : random.pick<Scene['backdrop']>(['mountains', 'hills', 'mountains']);

  const objects = new Set<SceneObject>();
  if (time === 'night') {
    if (weather === 'clear' || p.has('moon', 'moonlight', 'moonlit')) objects.add('moon');
    if (weather === 'clear' || p.has('star', 'starry')) objects.add('stars');
  } else if (weather === 'clear' || weather === 'cloudy' || p.has('sun', 'sunny')) {
    objects.add('sun');
  }
  const wanted: Array<[SceneObject, string[]]> = [
    ['trees', ['tree', 'forest', 'woods', 'pine', 'palm', 'jungle', 'oak']],
    ['houses', ['house', 'cabin', 'cottage', 'village', 'home', 'hut', 'barn', 'farm']],
    ['boat', ['boat', 'ship', 'sail', 'sailboat', 'yacht', 'harbor', 'harbour']],
    ['birds', ['bird', 'birds', 'seagull', 'gull', 'flock', 'eagle']],
    ['castle', ['castle', 'fortress', 'palace', 'tower', 'kingdom']],
    ['flowers', ['flower', 'blossom', 'tulip', 'rose', 'garden', 'spring', 'meadow']],
    ['lighthouse', ['lighthouse']],
    ['aurora', ['aurora', 'northern lights', 'borealis']],
    ['rainbow', ['rainbow']],
  ];
  for (const [object, words] of wanted) if (p.has(...words)) objects.add(object);
  if (land === 'forest') objects.add('trees');
  if (land === 'hills' && random.chance(0.5)) objects.add('trees');
  if (objects.has('aurora') && time !== 'night') objects.delete('aurora');

  const colors: Scene['colors'] = {};
  const tokens = p.text.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  const SKY = ['sky', 'skies', 'cloud', 'clouds', 'heaven', 'heavens', 'horizon', 'light', 'glow'];
  const LAND = [
    'hill',
    'hills',
    'grass',
    'land',
    'mountain',
    'mountains',
    'field',
    'fields',
    'meadow',
    'meadows',
    'dune',
    'dunes',
    'desert',
    'forest',
    'ground',
    'valley',
    'plains',
    'sand',
    'earth',
    'rocks',
    'cliffs',
  ];
  const WATER = ['water', 'sea', 'ocean', 'lake', 'river', 'waves', 'pond', 'bay'];
  for (const [i, token] of tokens.entries()) {
    const hex = COLOR_WORDS[token];
    if (!hex) continue;
    colors.first ??= hex;
    // The noun the colour describes: the next word or the one after ("deep blue sky", "red and orange sky").
    const next = tokens
      .slice(i + 1, i + 4)
      .find(
        (t) =>
          !COLOR_WORDS[t] &&
          t !== 'and' &&
          t !== 'deep' &&
          t !== 'dark' &&
          t !== 'light' &&
          t !== 'pale' &&
          t !== 'bright',
      );
    if (next && SKY.includes(next)) colors.sky ??= hex;
    else if (next && LAND.includes(next)) colors.land ??= hex;
    else if (next && WATER.includes(next)) colors.water ??= hex;
    else colors.accent ??= hex;
  }

  const season: Scene['season'] = p.has('winter', 'snow', 'snowy', 'frozen', 'ice', 'icy')
    ? 'winter'
    : p.has('autumn', 'fall', 'october', 'harvest')
      ? 'autumn'
      : p.has('spring', 'blossom', 'bloom')
        ? 'spring'
        : 'summer';

  const drama = Math.min(
    1,
    (p.has('dramatic', 'epic', 'stormy', 'storm', 'wild', 'intense') ? 0.6 : 0.2) + random.range(0, 0.3),
  );

  return {
    time,
    weather,
    land,
    backdrop,
    water: land === 'ocean' || land === 'beach' || land === 'lake' || p.has('water', 'river'),
    objects,
    colors,
    season,
    drama,
    seed: random.int(0, 2 ** 31 - 1),
  };
}
