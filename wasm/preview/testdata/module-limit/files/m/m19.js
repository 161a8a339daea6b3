export const m19 = 19;
