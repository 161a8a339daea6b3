export const m25 = 25;
