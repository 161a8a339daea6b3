export const m18 = 18;
