package org.spongefiles.core;

import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.spongefiles.core.config.OptionSet;
import org.spongefiles.core.config.ParsedConfig;
import org.spongefiles.core.io.BufferPool;
import org.spongefiles.core.io.ReadBuffers;
import org.spongefiles.core.stats.SpongeStats;
import org.spongefiles.core.tier.FileKey;
import org.spongefiles.core.tier.PlacementPolicy;
import org.spongefiles.core.tier.PoolTier;
import org.spongefiles.core.tier.TierChain;

/**
 * A task's entry point to SpongeFiles: it owns the task's tier chain, write buffers and I/O
 * threads, creates the task's SpongeFiles and, on {@link #close()}, deletes every one it still owns
 * and frees every pool chunk the task still holds.
 *
 * <pre>{@code
 * try (SpongeTask task = SpongeTask.open(conf, "attempt_..._r_000000_0")) {
 *   SpongeFile spill = task.create("merge-0");
 *   try (OutputStream out = spill.output()) {
 *     out.write(bytes);
 *   }
 *   try (SpongeInputStream in = spill.input()) {
 *     in.readNBytes(...);
 *   }
 *   spill.delete();
 * }
 * }</pre>
 */
public final class SpongeTask implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(SpongeTask.class);
  private static final int IO_TERMINATION_SECONDS = 30;

  private final TaskIdentity identity;
  private final SpongeTaskSettings settings;
  private final TierChain chain;
  private final int chunkSize;
  private final BufferPool buffers;
  private final ReadBuffers readBuffers = new ReadBuffers(8);
  private final ExecutorService io;
  private final Map<Long, SpongeFile> files = new ConcurrentHashMap<>();
  private final AtomicLong sequence = new AtomicLong();
  private final AtomicBoolean closed = new AtomicBoolean();
  private final PlacementPolicy placement;

  private SpongeTask(
      TaskIdentity identity, SpongeTaskSettings settings, TierChain chain, int chunkSize) {
    this.identity = identity;
    this.settings = settings;
    this.chain = chain;
    this.chunkSize = chunkSize;
    this.buffers = new BufferPool(chunkSize, settings.writeBuffers);
    this.io = newIoExecutor(identity.taskId(), settings.ioThreads);
    this.placement = PlacementPolicy.of(chain, settings.writeOverflow);
  }

  /** Opens SpongeFiles for task attempt {@code taskId} running in this process. */
  public static SpongeTask open(Configuration conf, String taskId) throws IOException {
    return open(parse(conf), conf, taskId);
  }

  /**
   * Opens SpongeFiles for task attempt {@code taskId} running in this process, with the sponge-core
   * values {@link #parse} read from {@code conf}: no {@code sponge.*} key is read again. A module
   * that reads keys of its own (the merger, the Pig bags, the leaky table) parses them with
   * sponge-core's in one {@link #parse} and opens its task with the result.
   *
   * @param conf the task's configuration, for Hadoop's keys (local directories, the file system of
   *     {@code sponge.dfs.dir})
   * @throws IllegalArgumentException when {@code values} were not made by {@link #parse}
   */
  public static SpongeTask open(ParsedConfig values, Configuration conf, String taskId)
      throws IOException {
    SpongeTaskSettings settings = new SpongeTaskSettings(values);
    return open(conf, settings, TaskIdentity.current(values, taskId));
  }

  /**
   * Opens SpongeFiles for {@code identity}: reads and checks every {@code sponge.*} key, attaches
   * to (or creates) the node's pool and sets up the other tiers.
   *
   * @throws org.spongefiles.core.config.ConfigException naming the key when a value is invalid
   * @throws IOException when a configured tier cannot be used (the message names the key)
   */
  public static SpongeTask open(Configuration conf, TaskIdentity identity) throws IOException {
    return open(conf, new SpongeTaskSettings(parse(conf)), identity);
  }

  /**
   * Parses and checks, once, every {@code sponge.*} key a task reads: sponge-core's and those of
   * {@code moduleSets} (a module's own keys), with the rules across keys of each set. Unknown keys
   * are warned about once per process, naming the nearest known key. The {@code sponge.*} keys that
   * the node's site files (in {@code HADOOP_CONF_DIR}) mark final win over {@code conf}'s, as in a
   * MapReduce task's JobConf ({@link org.spongefiles.core.config.NodeFinalKeys}).
   *
   * @return the values to open the task with ({@link #open(ParsedConfig, Configuration, String)})
   *     and to build the module's settings from
   * @throws org.spongefiles.core.config.ConfigException naming the key and value of the first
   *     unusable setting
   * @throws IllegalStateException naming the file when a site file of the node cannot be parsed
   */
  public static ParsedConfig parse(Configuration conf, OptionSet... moduleSets) {
    return SpongeTaskSettings.parse(conf, moduleSets);
  }

  private static SpongeTask open(
      Configuration conf, SpongeTaskSettings settings, TaskIdentity identity) throws IOException {
    TierChain chain = TierChainFactory.build(conf, identity, settings);
    try {
      int chunkSize = settings.configuredChunkSize;
      PoolTier pool = chain.pool();
      if (pool != null && pool.pool().chunkSize() != chunkSize) {
        LOG.warn(
            "sponge.chunk.size is {} but the pool {} has {}-byte chunks; using the pool's",
            chunkSize,
            pool.pool().metadataFile(),
            pool.pool().chunkSize());
        chunkSize = pool.pool().chunkSize();
        SpongeOptions.checkBlocksFill(
            chunkSize, settings.checksumBlockSize, "the chunk size of " + pool.pool());
      }
      SpongeTask task = new SpongeTask(identity, settings, chain, chunkSize);
      LOG.debug("SpongeFiles for {}: tiers {}, {}", identity, chain, task.placement);
      return task;
    } catch (RuntimeException e) {
      chain.close();
      throw e;
    }
  }

  /**
   * Creates a SpongeFile, open for writing through {@link SpongeFile#output()}. Names need not be
   * unique; they appear in messages and in the names of disk files.
   */
  public SpongeFile create(String name) {
    checkOpen();
    long id = sequence.incrementAndGet();
    SpongeFile file = new SpongeFile(this, new FileKey(identity.taskId(), id, name));
    files.put(id, file);
    settings.stats.fileCreated();
    return file;
  }

  /** The task's SpongeFiles that are not deleted yet. */
  public List<SpongeFile> files() {
    return new ArrayList<>(files.values());
  }

  public TaskIdentity identity() {
    return identity;
  }

  /** Bytes and chunks per tier and time blocked, since the task opened. */
  public SpongeStats stats() {
    return settings.stats;
  }

  /** Size of one chunk (the pool's, when a pool is used). */
  public int chunkSize() {
    return chunkSize;
  }

  /** The tiers chunks may go to, nearest first. */
  public TierChain tiers() {
    return chain;
  }

  /**
   * The most write-behind buffers ever live at once: at most {@code sponge.write.buffers} plus one
   * per writer filling a chunk at the same time.
   */
  public int peakWriteBuffersLive() {
    return buffers.peakLive();
  }

  /** The most chunks ever queued or being stored behind writers at once. */
  public int peakChunksInFlight() {
    return buffers.peakInFlight();
  }

  int checksumBlockSize() {
    return settings.checksumBlockSize;
  }

  /**
   * The read window of a {@link SpongeInputStream} asked for {@code requested} bytes: whole
   * checksum blocks, at least one, at most a chunk. A reader holds two (one read ahead).
   */
  public int readWindow(long requested) {
    int block = settings.checksumBlockSize;
    long rounded = Math.max(block, requested / block * block);
    return (int) Math.min(rounded, chunkSize);
  }

  /** How long a writer waits for a write-behind buffer due back soon before it overflows. */
  long overflowWaitNanos() {
    return settings.writeOverflowWaitNanos;
  }

  boolean poolChecksum() {
    return settings.poolChecksum;
  }

  /**
   * Where each chunk of the task's writers is written (in place, behind, inline, overflow): the
   * streams ask it and act.
   */
  PlacementPolicy placement() {
    return placement;
  }

  boolean prefetch() {
    return settings.prefetch;
  }

  BufferPool buffers() {
    return buffers;
  }

  ReadBuffers readBuffers() {
    return readBuffers;
  }

  ExecutorService io() {
    return io;
  }

  void forget(SpongeFile file) {
    files.remove(file.key().sequence());
  }

  boolean isClosed() {
    return closed.get();
  }

  private void checkOpen() {
    if (closed.get()) {
      throw new IllegalStateException("SpongeFiles of task " + identity + " are closed");
    }
  }

  /**
   * Deletes every SpongeFile the task still owns, frees any pool chunk it still holds, and releases
   * its threads, buffers and tiers. Idempotent.
   */
  @Override
  public void close() throws IOException {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    IOException failure = null;
    for (SpongeFile file : files()) {
      try {
        file.delete();
      } catch (IOException | RuntimeException e) {
        LOG.warn("Could not delete {}: {}", file, e.toString());
        failure = first(failure, e);
      }
    }
    io.shutdown();
    boolean quiet = awaitIoTermination();
    PoolTier pool = chain.pool();
    if (pool != null && !quiet) {
      LOG.warn(
          "SpongeFile I/O of {} still running after {} s; its pool chunks are left to the sponge"
              + " server's orphan sweep",
          identity,
          IO_TERMINATION_SECONDS);
    } else if (pool != null) {
      try {
        int swept = pool.releaseAll();
        if (swept > 0) {
          LOG.warn("Freed {} pool chunk(s) of {} that no SpongeFile recorded", swept, identity);
        }
      } catch (IOException | RuntimeException e) {
        failure = first(failure, e);
      }
    }
    try {
      chain.close();
    } catch (IOException | RuntimeException e) {
      failure = first(failure, e);
    }
    buffers.close();
    readBuffers.clear();
    if (failure != null) {
      throw failure;
    }
  }

  /**
   * Waits for the I/O threads to end, through interrupts (the flag is restored): until they have,
   * one of them may still be copying into a pool chunk, which must not be freed under it.
   */
  private boolean awaitIoTermination() {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(IO_TERMINATION_SECONDS);
    boolean interrupted = false;
    try {
      while (true) {
        try {
          return io.awaitTermination(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private static IOException first(IOException failure, Exception e) {
    if (failure != null) {
      failure.addSuppressed(e);
      return failure;
    }
    return e instanceof IOException ? (IOException) e : new IOException(e);
  }

  private static ExecutorService newIoExecutor(String task, int threads) {
    AtomicInteger count = new AtomicInteger();
    ThreadPoolExecutor executor =
        new ThreadPoolExecutor(
            threads,
            threads,
            30,
            TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(),
            r -> {
              Thread thread = new Thread(r, "sponge-io-" + task + "-" + count.incrementAndGet());
              thread.setDaemon(true);
              return thread;
            });
    executor.allowCoreThreadTimeOut(true);
    return executor;
  }

  @Override
  public String toString() {
    return "SpongeFiles of " + identity + " (" + chain + ")";
  }
}
