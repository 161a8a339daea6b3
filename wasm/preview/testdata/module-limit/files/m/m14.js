export const m14 = 14;
