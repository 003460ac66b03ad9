/** Polls `check` until it holds or `ms` pass (bounded, as every wait of a test); its last answer. */
export async function until(check: () => boolean, ms: number, stepMs = 20): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; ) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, stepMs));
  }
  return check();
}
