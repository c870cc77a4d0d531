package org.spongefiles.core;

import java.time.Duration;
import java.util.List;
import org.spongefiles.core.config.ByteSize;
import org.spongefiles.core.config.ConfigException;
import org.spongefiles.core.config.ConfigOption;
import org.spongefiles.core.config.ConfigValues;
import org.spongefiles.core.config.Importance;
import org.spongefiles.core.config.OptionSet;
import org.spongefiles.core.config.Validator;
import org.spongefiles.core.tier.TierKind;

/** Every key sponge-core reads, declared once. Operators set them in mapred-site.xml. */
public final class SpongeOptions implements OptionSet {

  public static final ConfigOption<Long> CHUNK_SIZE =
      ConfigOption.bytes("sponge.chunk.size", 1L << 20)
          .importance(Importance.HIGH)
          .validate(Validator.bytesBetween(64L << 10, 256L << 20))
          .describe(
              "Size of one in-memory chunk, and of the write buffer that fills it. Must be a "
                  + "multiple of sponge.checksum.block.size. When a task attaches to an existing "
                  + "pool, the pool's chunk size wins and a different value here is logged.");

  public static final ConfigOption<List<String>> TIERS =
      ConfigOption.list("sponge.tiers", List.of("pool", "remote", "disk", "dfs"))
          .importance(Importance.HIGH)
          .validate(Validator.subsetOf(TierKind.names()))
          .describe(
              "Where chunks may go, nearest first. A tier that is not configured (no servers "
                  + "for remote, no sponge.dfs.dir for dfs) is skipped.");

  public static final ConfigOption<String> POOL_DIR =
      ConfigOption.string("sponge.pool.dir", "/dev/shm")
          .importance(Importance.HIGH)
          .validate(Validator.nonBlank())
          .describe(
              "Directory of the node's shared memory pool files: a tmpfs, so the pool is memory. "
                  + "All tasks and the sponge server of a node must use the same directory.");

  public static final ConfigOption<String> POOL_NAME =
      ConfigOption.string("sponge.pool.name", "sponge-pool-${user.name}")
          .validate(Validator.nonBlank())
          .describe(
              "Base name of the pool's files in sponge.pool.dir; ${user.name} is the OS user of "
                  + "the process. By default each OS user has a pool of its own (files 0600): "
                  + "tasks share memory directly only with processes of their own user, and with "
                  + "others only through a sponge server, which checks ownership.");

  public static final ConfigOption<Long> POOL_SIZE =
      ConfigOption.bytes("sponge.pool.size", 1L << 30)
          .importance(Importance.HIGH)
          .validate(Validator.bytesBetween(64L << 10, 1L << 50))
          .describe(
              "Total size of the shared pool when it is created (by the sponge server or the "
                  + "first task on the node). tmpfs has no swap behind it: leave room for tasks.");

  public static final ConfigOption<Long> POOL_SEGMENT_SIZE =
      ConfigOption.bytes("sponge.pool.segment.size", 1L << 30)
          .importance(Importance.LOW)
          .validate(Validator.bytesBetween(64L << 10, 1L << 30))
          .describe(
              "Size of one mapped segment file of the pool (a Java mapping is below 2 GiB); "
                  + "rounded down to a whole number of chunks.");

  public static final ConfigOption<Boolean> POOL_CREATE =
      ConfigOption.bool("sponge.pool.create", true)
          .describe(
              "Whether a task may create the pool when none exists. Set to false where only the "
                  + "sponge server should create it; tasks then skip the pool until it exists.");

  public static final ConfigOption<String> POOL_PERMISSIONS =
      ConfigOption.string("sponge.pool.permissions", "rw-------")
          .importance(Importance.LOW)
          .validate(posixPermissions())
          .describe(
              "POSIX permissions of newly created pool files. Any process that can open them "
                  + "can read and write every chunk in the pool, so keep them to the pool's own "
                  + "user (the default) unless all users sharing a pool trust each other.");

  public static final ConfigOption<Boolean> POOL_CHECKSUM =
      ConfigOption.bool("sponge.pool.checksum", false)
          .importance(Importance.LOW)
          .describe(
              "Whether chunks in the node's pool carry CRC32C checksums verified on read. Off by "
                  + "default: the pool never leaves the node's memory, and a checksum costs about "
                  + "one more pass over every chunk (see docs/performance.md).");

  public static final ConfigOption<Duration> POOL_LOCK_TIMEOUT =
      ConfigOption.duration("sponge.pool.lock.timeout", Duration.ofSeconds(5))
          .importance(Importance.LOW)
          .validate(Validator.durationBetween(Duration.ofMillis(10), Duration.ofHours(1)))
          .describe(
              "How long an allocation waits for the pool lock held by a live process before it "
                  + "gives up on the pool for that chunk (the chunk goes to the next tier). A dead "
                  + "holder's lock is taken over within about 10 ms.");

  public static final ConfigOption<Boolean> POOL_RECLAIM_ON_START =
      ConfigOption.bool("sponge.pool.reclaim.on.start", true)
          .importance(Importance.LOW)
          .describe("Whether a task frees the pool chunks of dead processes when it starts.");

  public static final ConfigOption<List<String>> DISK_DIRS =
      ConfigOption.list("sponge.disk.dirs", List.of())
          .importance(Importance.HIGH)
          .describe(
              "Local directories for disk chunks. Empty means Hadoop's local directories "
                  + "(mapreduce.cluster.local.dir, set by YARN for each container), else "
                  + "hadoop.tmp.dir, each with a spongefiles/ subdirectory.");

  public static final ConfigOption<Long> DISK_RESERVE =
      ConfigOption.bytes("sponge.disk.reserve", 256L << 20)
          .validate(Validator.bytesBetween(0, 1L << 50))
          .describe(
              "Free space a local directory keeps: a disk chunk goes elsewhere rather than leave "
                  + "less than this on the device.");

  public static final ConfigOption<Long> DISK_LIMIT =
      ConfigOption.bytes("sponge.disk.limit", 0)
          .validate(Validator.bytesBetween(0, 1L << 60))
          .describe("Most bytes one task may put on local disk; 0 means no limit.");

  public static final ConfigOption<Long> DISK_RECYCLE_BYTES =
      ConfigOption.bytes("sponge.disk.recycle.bytes", 256L << 20)
          .importance(Importance.LOW)
          .validate(Validator.bytesBetween(0, 1L << 50))
          .describe(
              "Backing files of deleted SpongeFiles a task keeps, up to this many bytes, to "
                  + "write its next disk chunks into: overwriting allocated blocks is much faster "
                  + "than creating, growing and unlinking a file per spill. 0 deletes them at once; "
                  + "all are deleted when the task closes.");

  public static final ConfigOption<String> DFS_DIR =
      ConfigOption.string("sponge.dfs.dir", "")
          .describe(
              "A Hadoop FileSystem directory (hdfs://namenode/spongefiles) for the last-resort "
                  + "tier; empty disables it. Files live under <dir>/<task attempt>/ and are "
                  + "deleted with their SpongeFiles.");

  public static final ConfigOption<Long> DFS_LIMIT =
      ConfigOption.bytes("sponge.dfs.limit", 0)
          .validate(Validator.bytesBetween(0, 1L << 60))
          .describe("Most bytes one task may put in the DFS tier; 0 means no limit.");

  public static final ConfigOption<List<String>> REMOTE_SERVERS =
      ConfigOption.list("sponge.remote.servers", List.of())
          .importance(Importance.HIGH)
          .describe(
              "Sponge servers (host:port) whose memory a task may borrow, in the order to try "
                  + "them, when no memory tracker is configured. Empty: no remote tier.");

  public static final ConfigOption<Integer> REMOTE_CONNECTIONS =
      ConfigOption.integer("sponge.remote.connections", 4)
          .importance(Importance.LOW)
          .validate(Validator.between(1, 64))
          .describe("Idle connections a task keeps to each sponge server for reuse.");

  public static final ConfigOption<Duration> REMOTE_CONNECT_TIMEOUT =
      ConfigOption.duration("sponge.remote.connect.timeout", Duration.ofSeconds(5))
          .validate(Validator.durationBetween(Duration.ofMillis(10), Duration.ofMinutes(10)))
          .describe("How long a task waits to connect to a sponge server before trying the next.");

  public static final ConfigOption<Duration> REMOTE_IO_TIMEOUT =
      ConfigOption.duration("sponge.remote.io.timeout", Duration.ofSeconds(30))
          .validate(Validator.durationBetween(Duration.ofMillis(10), Duration.ofHours(1)))
          .describe(
              "How long one request to a sponge server (a chunk write or read included) may take "
                  + "before the server is considered failed: a write goes elsewhere, a read fails "
                  + "the task attempt.");

  public static final ConfigOption<Integer> REMOTE_ALLOCATE_BATCH =
      ConfigOption.integer("sponge.remote.allocate.batch", 4)
          .importance(Importance.LOW)
          .validate(Validator.between(1, 1024))
          .describe(
              "Chunks a task allocates per request to a sponge server, and holds unused at "
                  + "most: from 2 on, the write that takes the last one asks for the next batch "
                  + "in the same round trip. Unused ones are freed when the task closes.");

  public static final ConfigOption<Duration> REMOTE_REFUSAL_BACKOFF =
      ConfigOption.duration("sponge.remote.refusal.backoff", Duration.ofSeconds(1))
          .importance(Importance.LOW)
          .validate(Validator.durationBetween(Duration.ZERO, Duration.ofHours(1)))
          .describe(
              "How long a task skips a server that said it is full or the task is over quota.");

  public static final ConfigOption<Duration> REMOTE_FAILURE_BACKOFF =
      ConfigOption.duration("sponge.remote.failure.backoff", Duration.ofSeconds(30))
          .importance(Importance.LOW)
          .validate(Validator.durationBetween(Duration.ZERO, Duration.ofHours(1)))
          .describe(
              "How long a task skips a server that failed (connection refused, reset, timeout).");

  public static final ConfigOption<Boolean> REMOTE_ENCRYPT =
      ConfigOption.bool("sponge.remote.encrypt", false)
          .describe(
              "Encrypt chunks lent to other nodes with AES-GCM under a per-file key that never "
                  + "leaves the task, so their memory holds ciphertext only. Encrypted chunks are "
                  + "read whole (GCM authenticates a chunk at once).");

  public static final ConfigOption<String> AUTH_SECRET_FILE =
      ConfigOption.string("sponge.auth.secret.file", "")
          .importance(Importance.HIGH)
          .describe(
              "File holding the cluster secret (at least 16 characters) that every task and "
                  + "sponge server proves with HMAC-SHA256 on each connection. Empty: no "
                  + "authentication unless sponge.auth.secret is set. Keep the file readable by "
                  + "task users and the server only.");

  public static final ConfigOption<String> AUTH_SECRET =
      ConfigOption.string("sponge.auth.secret", "")
          .describe(
              "The cluster secret itself, for tests and single-user setups; prefer "
                  + "sponge.auth.secret.file, since configuration values are readable by jobs.");

  public static final ConfigOption<Integer> SERVER_PORT =
      ConfigOption.integer("sponge.server.port", 7071)
          .validate(Validator.between(1, 65535))
          .describe(
              "Port of the sponge server of every node. Tasks tell remote servers to check their "
                  + "liveness with the server at <node>:<port> of their own node.");

  public static final ConfigOption<String> SERVER_ADDRESS =
      ConfigOption.string("sponge.server.address", "")
          .describe(
              "This node's sponge server as other nodes reach it (host:port); empty means the "
                  + "node name (sponge.node.id or the host name) and sponge.server.port. Set it "
                  + "per node (sponge-site.xml), never cluster-wide: a server takes a client "
                  + "with its own address for a local process.");

  public static final ConfigOption<Long> CHECKSUM_BLOCK_SIZE =
      ConfigOption.bytes("sponge.checksum.block.size", 64L << 10)
          .importance(Importance.LOW)
          .validate(Validator.bytesBetween(4L << 10, 256L << 20))
          .describe(
              "Bytes covered by one CRC32C. Reads of non-pool chunks are verified a block at a "
                  + "time, so a reader's buffer can be smaller than a chunk.");

  public static final ConfigOption<Integer> WRITE_BUFFERS =
      ConfigOption.integer("sponge.write.buffers", 4)
          .importance(Importance.LOW)
          .validate(Validator.between(1, 1024))
          .describe(
              "Most chunks per task queued or being written to non-pool tiers behind the "
                  + "writer; a writer that seals one more waits (counted as blocked write time). "
                  + "Each file being written also fills one chunk-sized buffer of its own.");

  public static final ConfigOption<Boolean> WRITE_OVERFLOW =
      ConfigOption.bool("sponge.write.overflow", true)
          .importance(Importance.LOW)
          .describe(
              "When every write-behind buffer is queued (sponge.write.buffers) and the tiers list "
                  + "the remote tier before the disk tier, a writer stores its next chunk on the "
                  + "local disk itself instead of waiting (unless a buffer is due back within "
                  + "sponge.write.overflow.wait), and at close takes back the chunks "
                  + "still queued and stores them there too: a rack link slower than the local "
                  + "disk's page cache then never holds the writer back, and a task is not slower "
                  + "than spilling to disk alone. Counted in OVERFLOW_CHUNKS. false: the writer "
                  + "waits for the remote tier, as the SpongeFiles paper's design does (for nodes "
                  + "whose local disks are always busy).");

  public static final ConfigOption<Duration> WRITE_OVERFLOW_WAIT =
      ConfigOption.duration("sponge.write.overflow.wait", Duration.ofMillis(2))
          .importance(Importance.LOW)
          .validate(Validator.durationBetween(Duration.ZERO, Duration.ofSeconds(1)))
          .describe(
              "With sponge.write.overflow, how long a writer whose write-behind buffers are all "
                  + "taken waits for one before it overflows its chunk to the local disk. It "
                  + "waits only when the chunk longest in flight is due back within this time, "
                  + "before or after (due: its start plus the mean time the task's chunks took "
                  + "so far), so a link that keeps up with the writer is waited for and a slow or "
                  + "stalled one is not. About the time the local disk takes to store a chunk; 0 "
                  + "overflows at once.");

  public static final ConfigOption<Integer> IO_THREADS =
      ConfigOption.integer("sponge.io.threads", 2)
          .importance(Importance.LOW)
          .validate(Validator.between(1, 256))
          .describe("Threads per task that write chunks behind the writer and prefetch reads.");

  public static final ConfigOption<Boolean> READ_PREFETCH =
      ConfigOption.bool("sponge.read.prefetch", true)
          .importance(Importance.LOW)
          .describe("Whether a reader fetches the next non-pool window while the current is read.");

  public static final ConfigOption<String> NODE_ID =
      ConfigOption.string("sponge.node.id", "")
          .describe(
              "Name of this node in chunk owner records and logs; empty means the host name.");

  /** A chunk is a whole number of checksum blocks: {@link #checkBlocksFill}. */
  @Override
  public void checkTogether(ConfigValues values) {
    checkBlocksFill(values.get(CHUNK_SIZE), values.get(CHECKSUM_BLOCK_SIZE), CHUNK_SIZE.key());
  }

  /**
   * The one rule tying the chunk size to {@code sponge.checksum.block.size}: checksum blocks fill a
   * chunk exactly, so a reader's window (whole blocks) never straddles two chunks. Tasks and the
   * sponge server check it for the configured chunk size and for the chunk size of a pool they
   * attach to, which wins over the configured one.
   *
   * @param chunkOrigin where {@code chunkSize} comes from, for the message ({@code
   *     sponge.chunk.size}, "the chunk size of pool ...")
   * @throws ConfigException naming {@code sponge.checksum.block.size}, its value and the chunk size
   */
  public static void checkBlocksFill(long chunkSize, long checksumBlockSize, String chunkOrigin) {
    if (chunkSize % checksumBlockSize != 0) {
      throw new ConfigException(
          CHECKSUM_BLOCK_SIZE.key(),
          ByteSize.format(checksumBlockSize),
          "must divide the chunk size " + ByteSize.format(chunkSize) + " (" + chunkOrigin + ")");
    }
  }

  private static Validator<String> posixPermissions() {
    return new Validator<String>() {
      @Override
      public String check(String value) {
        try {
          java.nio.file.attribute.PosixFilePermissions.fromString(value);
          return null;
        } catch (IllegalArgumentException e) {
          return "must be nine characters like rw-rw----";
        }
      }

      @Override
      public String describe() {
        return "nine characters like rw-rw----";
      }
    };
  }

  private static final List<ConfigOption<?>> ALL =
      List.of(
          CHUNK_SIZE,
          TIERS,
          POOL_DIR,
          POOL_NAME,
          POOL_SIZE,
          POOL_SEGMENT_SIZE,
          POOL_CREATE,
          POOL_PERMISSIONS,
          POOL_CHECKSUM,
          POOL_LOCK_TIMEOUT,
          POOL_RECLAIM_ON_START,
          DISK_DIRS,
          DISK_RESERVE,
          DISK_LIMIT,
          DISK_RECYCLE_BYTES,
          DFS_DIR,
          DFS_LIMIT,
          REMOTE_SERVERS,
          REMOTE_CONNECTIONS,
          REMOTE_CONNECT_TIMEOUT,
          REMOTE_IO_TIMEOUT,
          REMOTE_ALLOCATE_BATCH,
          REMOTE_REFUSAL_BACKOFF,
          REMOTE_FAILURE_BACKOFF,
          REMOTE_ENCRYPT,
          AUTH_SECRET_FILE,
          AUTH_SECRET,
          SERVER_PORT,
          SERVER_ADDRESS,
          CHECKSUM_BLOCK_SIZE,
          WRITE_BUFFERS,
          WRITE_OVERFLOW,
          WRITE_OVERFLOW_WAIT,
          IO_THREADS,
          READ_PREFETCH,
          NODE_ID);

  @Override
  public String title() {
    return "sponge-core: SpongeFiles in a task";
  }

  @Override
  public String summary() {
    return "Read by every task that spills to SpongeFiles (set them in mapred-site.xml, a job's "
        + "configuration or a Pig script) and by the sponge server for the pool keys.";
  }

  @Override
  public List<ConfigOption<?>> options() {
    return ALL;
  }

  @Override
  public int order() {
    return 0;
  }
}
