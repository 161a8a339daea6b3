export const m20 = 20;
