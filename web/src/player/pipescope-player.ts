// SCAFFOLD (issue 14): defines <pipescope-player>; replaced by the embed/player work.
export {};
