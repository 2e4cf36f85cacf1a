// SCAFFOLD (issue 14): the embed page's entry; replaced by the embed/player work.
import '../player/pipescope-player.ts';
