import type { Deps } from '../../src/platform/context.ts';
import type { PixProvider } from '../../src/providers/pix/provider.ts';

/** Puts `provider` behind the sandbox PIX rail of `deps` (the sandbox controls stay); returns the undo. */
export function useSandboxPix(deps: Deps, provider: PixProvider): () => void {
  const original = deps.providers;
  deps.providers = original.replacing('pix', 'sandbox', provider);
  return () => {
    deps.providers = original;
  };
}

/** The sandbox PSP itself, to wrap in a test double. */
export const sandboxPsp = (deps: Deps): PixProvider => deps.providers.get('pix', 'sandbox');
