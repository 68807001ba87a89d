/**
 * Play words every language writes in Latin letters: game titles and gamer words ("в Fortnite я тебя
 * убью", "PvPで殺す"). They count as `violence.play` in every lexicon, beside the language's own words
 * for a game, a round or a workout, so a lexicon of a non-Latin script need not repeat them.
 */
export const LATIN_PLAY: readonly string[] = [
  'fortnite',
  'minecraft',
  'roblox',
  'valorant',
  'csgo',
  'counter strike',
  'counterstrike',
  'pubg',
  'call of duty',
  'warzone',
  'apex legends',
  'overwatch',
  'league of legends',
  'dota',
  'dota2',
  'gta',
  'battle royale',
  'pvp',
  'pve',
  'respawn',
  'speedrun',
  'noob',
  'nub',
  'gameplay',
  'dark souls',
  'elden ring',
  'mortal kombat',
  'tekken',
  'street fighter',
  'smash bros',
];
