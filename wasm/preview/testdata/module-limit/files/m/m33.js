export const m33 = 33;
