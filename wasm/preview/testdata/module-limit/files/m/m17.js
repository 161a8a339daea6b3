export const m17 = 17;
