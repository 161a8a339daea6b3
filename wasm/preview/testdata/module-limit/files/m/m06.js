export const m06 = 6;
