export const more = true;
