export const m13 = 13;
