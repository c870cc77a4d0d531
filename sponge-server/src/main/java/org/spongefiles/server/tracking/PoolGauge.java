package org.spongefiles.server.tracking;

/** The size and free count of a server's pool, as a {@link LeaderLink} reports them. */
public interface PoolGauge {
  int chunkSize();

  int chunks();

  /** Read every sample (a tenth of a second or so): must be cheap. */
  int freeChunks();
}
