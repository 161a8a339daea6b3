export const m12 = 12;
