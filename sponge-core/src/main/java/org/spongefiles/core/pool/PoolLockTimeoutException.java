package org.spongefiles.core.pool;

import java.io.IOException;

/** The pool lock stayed held by a live process for longer than the configured timeout. */
public class PoolLockTimeoutException extends IOException {
  private static final long serialVersionUID = 1L;

  private final int holderPid;

  PoolLockTimeoutException(String pool, int holderPid, long waitedMillis) {
    super(
        "Pool "
            + pool
            + ": lock held by live process "
            + holderPid
            + " for more than "
            + waitedMillis
            + " ms (sponge.pool.lock.timeout)");
    this.holderPid = holderPid;
  }

  public int holderPid() {
    return holderPid;
  }
}
