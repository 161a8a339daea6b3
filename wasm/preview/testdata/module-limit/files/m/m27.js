export const m27 = 27;
