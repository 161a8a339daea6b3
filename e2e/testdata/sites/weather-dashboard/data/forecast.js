// Sample data instead of a network call: the preview sandbox has no network access.
const SAMPLE = {
  Seoul: [12, 14, 17, 19, 18, 15],
  Lisbon: [17, 18, 21, 23, 22, 19],
  Toronto: [4, 6, 9, 11, 9, 6],
};

export async function forecastFor(city) {
  const base = SAMPLE[city] || SAMPLE.Seoul;
  return ["Today", "Tomorrow", "Saturday"].map((label, i) => {
    const hourly = base.map((t) => t + i - 1);
    return { label, hourly, high: Math.max(...hourly), low: Math.min(...hourly) };
  });
}
