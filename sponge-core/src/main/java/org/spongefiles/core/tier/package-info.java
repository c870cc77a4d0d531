/**
 * The places a chunk can live and the one decision of where it goes: {@link
 * org.spongefiles.core.tier.TierChain} tries the tiers of {@code sponge.tiers} in order and counts
 * what each took; the pool, disk and DFS tiers store the chunks.
 *
 * <p>Owns: placement and the stored-chunk handles. May import {@code pool}; must not import the
 * root package, {@code stats}, {@code remote} or {@code wire}.
 */
package org.spongefiles.core.tier;
