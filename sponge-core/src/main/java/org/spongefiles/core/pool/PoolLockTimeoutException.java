package org.spongefiles.core.pool;

import java.io.IOException;

/** The pool lock stayed held by a live process for longer than the configured timeout. */
public class PoolLockTimeoutException extends IOException {
  private static final long serialVersionUID = 1L;

  private final long holderLease;

  PoolLockTimeoutException(String pool, long holderLease, long waitedMillis) {
    super(
        "Pool "
            + pool
            + ": lock held by the live process of lease "
            + Long.toHexString(holderLease)
            + " for more than "
            + waitedMillis
            + " ms (sponge.pool.lock.timeout)");
    this.holderLease = holderLease;
  }

  /** The lease id of the process that held the lock. */
  public long holderLease() {
    return holderLease;
  }
}
