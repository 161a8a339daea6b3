export const m08 = 8;
