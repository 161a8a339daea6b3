export const m15 = 15;
