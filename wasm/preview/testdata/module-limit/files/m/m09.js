export const m09 = 9;
