export const m03 = 3;
