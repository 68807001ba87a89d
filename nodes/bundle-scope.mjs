// Injected by build.mjs: what `globalThis` means inside the bundle (see build.mjs). A plain object,
// so bundled libraries keep their "global" state to themselves.
export const __mediagenScope = {};
