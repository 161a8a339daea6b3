export const m10 = 10;
