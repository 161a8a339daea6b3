export const m11 = 11;
