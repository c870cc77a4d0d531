/**
 * The places a chunk can live and the two decisions of where it goes, each in one class: {@link
 * org.spongefiles.core.tier.TierChain} tries the tiers of {@code sponge.tiers} in order and counts
 * what each took; {@link org.spongefiles.core.tier.PlacementPolicy} says how a chunk reaches it (in
 * place, behind the writer, inline, or overflow to the disk). The pool, disk and DFS tiers store
 * the chunks.
 *
 * <p>Owns: placement and the stored-chunk handles. May import {@code pool}; must not import the
 * root package, {@code stats}, {@code remote} or {@code wire}.
 */
package org.spongefiles.core.tier;
