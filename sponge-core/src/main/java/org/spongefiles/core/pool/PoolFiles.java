package org.spongefiles.core.pool;

import static org.spongefiles.core.pool.PoolLayout.BYTE_ORDER_MARK;
import static org.spongefiles.core.pool.PoolLayout.HEADER_SIZE;
import static org.spongefiles.core.pool.PoolLayout.MAGIC;
import static org.spongefiles.core.pool.PoolLayout.OFF_BOM;
import static org.spongefiles.core.pool.PoolLayout.OFF_CHUNKS_PER_SEGMENT;
import static org.spongefiles.core.pool.PoolLayout.OFF_CHUNK_COUNT;
import static org.spongefiles.core.pool.PoolLayout.OFF_CHUNK_SIZE;
import static org.spongefiles.core.pool.PoolLayout.OFF_CREATED;
import static org.spongefiles.core.pool.PoolLayout.OFF_HOST_SLOTS;
import static org.spongefiles.core.pool.PoolLayout.OFF_MAGIC;
import static org.spongefiles.core.pool.PoolLayout.OFF_POOL_ID;
import static org.spongefiles.core.pool.PoolLayout.OFF_SEGMENT_COUNT;
import static org.spongefiles.core.pool.PoolLayout.OFF_VERSION;
import static org.spongefiles.core.pool.PoolLayout.VERSION;

import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates, formats and validates a pool's files. Creation is safe when several processes start at
 * once: each formats a private temporary metadata file and publishes it with a hard link, which
 * only one can win; the others remove what they made and attach to the winner's pool.
 */
final class PoolFiles {
  private static final Logger LOG = LoggerFactory.getLogger(PoolFiles.class);
  private static final SecureRandom RANDOM = new SecureRandom();

  private PoolFiles() {}

  /**
   * Maps the pool at {@code spec}, creating it first when it is missing and creation is allowed.
   */
  static MappedPool openOrCreate(PoolSpec spec) throws IOException {
    Path meta = spec.metadataFile();
    for (int attempt = 0; ; attempt++) {
      if (Files.exists(meta)) {
        return attach(meta, spec);
      }
      if (!spec.create()) {
        throw new NoSuchFileException(
            meta.toString(),
            null,
            "no sponge pool here and sponge.pool.create=false (the node's sponge server creates"
                + " it)");
      }
      if (!Files.isDirectory(spec.dir())) {
        throw new NoSuchFileException(
            spec.dir().toString(), null, "pool directory (sponge.pool.dir) does not exist");
      }
      MappedPool created = tryCreate(spec);
      if (created != null) {
        return created;
      }
      if (attempt > 3) {
        throw new IOException("Pool " + meta + " kept appearing and disappearing while opening");
      }
    }
  }

  /** Maps an existing pool and checks that it is one this build can use. */
  static MappedPool attach(Path meta, PoolSpec spec) throws IOException {
    MappedByteBuffer header;
    long size;
    try (FileChannel channel =
        FileChannel.open(meta, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      size = channel.size();
      if (size < HEADER_SIZE) {
        throw new PoolFormatException(
            meta, "is " + size + " bytes, shorter than a pool header; it is not a sponge pool");
      }
      header = channel.map(FileChannel.MapMode.READ_WRITE, 0, size);
    }
    header.order(ByteOrder.nativeOrder());
    MappedWords words = new MappedWords(header);
    PoolLayout layout = validate(meta, words, size);
    long poolId = words.getLong(OFF_POOL_ID);
    LeaseDirectory leases = LeaseDirectory.beside(spec.dir());
    Lease lease = leases.processLease();
    MappedByteBuffer[] segments = new MappedByteBuffer[layout.segmentCount];
    for (int s = 0; s < layout.segmentCount; s++) {
      Path file = segmentFile(spec.dir(), spec.name(), poolId, s);
      if (!Files.exists(file)) {
        throw new PoolFormatException(
            meta, "names segment " + file + ", which is missing; the pool is damaged");
      }
      segments[s] = mapSegment(file, layout.segmentBytes(s), meta);
    }
    return new MappedPool(
        spec, layout, header, segments, poolId, extents(spec, layout, poolId), lease, leases);
  }

  private static PoolLayout validate(Path meta, MappedWords words, long size)
      throws PoolFormatException {
    long magic = words.getLong(OFF_MAGIC);
    if (magic != MAGIC) {
      if (Long.reverseBytes(magic) == MAGIC) {
        throw new PoolFormatException(meta, "was created on a machine of the other byte order");
      }
      throw new PoolFormatException(
          meta,
          String.format(
              "is not a sponge pool (magic 0x%016x, expected 0x%016x); refusing to use or"
                  + " reformat it. Remove it, or point sponge.pool.dir/sponge.pool.name elsewhere",
              magic, MAGIC));
    }
    int version = words.getInt(OFF_VERSION);
    if (version == 1) {
      throw new PoolFormatException(
          meta,
          "has layout version 1, which named chunk owners by pid; this build reads version "
              + VERSION
              + ", which names them by lease. Stop the node's tasks and sponge server, remove the"
              + " pool files and restart the server with this build");
    }
    if (version != VERSION) {
      throw new PoolFormatException(
          meta,
          "has layout version "
              + version
              + " but this build reads version "
              + VERSION
              + "; stop the node's tasks and sponge server and remove the pool files, or run a"
              + " matching build");
    }
    if (words.getInt(OFF_BOM) != BYTE_ORDER_MARK) {
      throw new PoolFormatException(meta, "was created on a machine of another byte order");
    }
    PoolLayout layout;
    try {
      layout =
          new PoolLayout(
              words.getInt(OFF_CHUNK_SIZE),
              words.getInt(OFF_CHUNK_COUNT),
              words.getInt(OFF_CHUNKS_PER_SEGMENT),
              words.getInt(OFF_HOST_SLOTS));
    } catch (IllegalArgumentException e) {
      throw new PoolFormatException(meta, "has an impossible geometry: " + e.getMessage());
    }
    if (layout.segmentCount != words.getInt(OFF_SEGMENT_COUNT) || layout.metadataSize() > size) {
      throw new PoolFormatException(
          meta,
          "is damaged: "
              + layout.segmentCount
              + " segments expected, header says "
              + words.getInt(OFF_SEGMENT_COUNT)
              + "; metadata needs "
              + layout.metadataSize()
              + " bytes, file has "
              + size);
    }
    return layout;
  }

  /** Creates the pool, or returns null when another process published one first. */
  private static MappedPool tryCreate(PoolSpec spec) throws IOException {
    PoolLayout layout = PoolLayout.forSize(spec.sizeBytes(), spec.chunkSize(), spec.segmentBytes());
    long poolId = RANDOM.nextLong() & Long.MAX_VALUE;
    Path meta = spec.metadataFile();
    LeaseDirectory leases = LeaseDirectory.beside(spec.dir());
    Lease lease = leases.processLease();
    Path temp = spec.dir().resolve(spec.name() + ".meta.tmp-" + Long.toHexString(poolId));
    List<Path> made = new ArrayList<>();
    boolean published = false;
    try {
      MappedByteBuffer[] segments = new MappedByteBuffer[layout.segmentCount];
      for (int s = 0; s < layout.segmentCount; s++) {
        Path file = segmentFile(spec.dir(), spec.name(), poolId, s);
        createSized(file, layout.segmentBytes(s), spec.permissions());
        made.add(file);
        segments[s] = mapSegment(file, layout.segmentBytes(s), meta);
      }
      createSized(temp, layout.metadataSize(), spec.permissions());
      made.add(temp);
      MappedByteBuffer header;
      try (FileChannel channel =
          FileChannel.open(temp, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
        header = channel.map(FileChannel.MapMode.READ_WRITE, 0, layout.metadataSize());
      }
      header.order(ByteOrder.nativeOrder());
      format(new MappedWords(header), layout, poolId);
      try {
        Files.createLink(meta, temp);
      } catch (FileAlreadyExistsException lost) {
        LOG.debug("Another process created pool {} first; attaching to it", meta);
        return null;
      }
      published = true;
      Files.deleteIfExists(temp);
      LOG.info(
          "Created sponge pool {}: {} chunks of {} bytes in {} segment(s)",
          meta,
          layout.chunkCount,
          layout.chunkSize,
          layout.segmentCount);
      return new MappedPool(
          spec, layout, header, segments, poolId, extents(spec, layout, poolId), lease, leases);
    } finally {
      if (!published) {
        for (Path file : made) {
          Files.deleteIfExists(file);
        }
      }
    }
  }

  private static void format(MappedWords words, PoolLayout layout, long poolId) {
    words.setInt(OFF_VERSION, VERSION);
    words.setInt(OFF_BOM, BYTE_ORDER_MARK);
    words.setInt(OFF_CHUNK_SIZE, layout.chunkSize);
    words.setInt(OFF_CHUNK_COUNT, layout.chunkCount);
    words.setInt(OFF_CHUNKS_PER_SEGMENT, layout.chunksPerSegment);
    words.setInt(OFF_SEGMENT_COUNT, layout.segmentCount);
    words.setLong(OFF_POOL_ID, poolId);
    words.setLong(OFF_CREATED, System.currentTimeMillis());
    words.setInt(OFF_HOST_SLOTS, layout.hostSlots);
    new OwnerTable(layout, words).format();
    words.setLong(OFF_MAGIC, MAGIC); // last: a file with the magic is fully formatted
  }

  /**
   * The pool's written extents, in the file every process of the node shares; this process's own
   * when the file can be neither found nor made (a pool directory tasks may not write to, with a
   * pool made by a build without extents): then the extents hold for the chunks this process lends
   * and reads, and a WARN says so.
   */
  private static WrittenExtents extents(PoolSpec spec, PoolLayout layout, long poolId)
      throws IOException {
    Path file = WrittenExtents.file(spec.dir(), spec.name(), poolId);
    try {
      return WrittenExtents.open(file, layout.chunkCount, spec.permissions());
    } catch (PoolFormatException e) {
      throw e;
    } catch (IOException e) {
      LOG.warn(
          "Cannot use the written extents {} of pool {} ({}); this process keeps its own",
          file,
          spec.metadataFile(),
          e.toString());
      return WrittenExtents.inMemory(layout.chunkCount);
    }
  }

  /** See {@link SharedPool#files}. */
  static List<Path> list(Path dir, String name) throws IOException {
    java.util.regex.Pattern mine =
        java.util.regex.Pattern.compile(
            java.util.regex.Pattern.quote(name)
                + "\\.(meta|meta\\..+|[0-9a-f]+\\.([0-9]+|extents))");
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (java.util.stream.Stream<Path> entries = Files.list(dir)) {
      return entries
          .filter(p -> mine.matcher(p.getFileName().toString()).matches())
          .sorted()
          .collect(java.util.stream.Collectors.toList());
    }
  }

  static Path segmentFile(Path dir, String name, long poolId, int segment) {
    return dir.resolve(name + "." + Long.toHexString(poolId) + "." + segment);
  }

  private static void createSized(Path file, long size, String permissions) throws IOException {
    try (FileChannel channel =
        FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      channel.write(java.nio.ByteBuffer.allocate(1), size - 1); // sparse: tmpfs pages on touch
    }
    try {
      Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(permissions));
    } catch (UnsupportedOperationException e) {
      LOG.debug("File system of {} has no POSIX permissions", file);
    }
  }

  private static MappedByteBuffer mapSegment(Path file, long size, Path meta) throws IOException {
    try (FileChannel channel =
        FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      if (channel.size() != size) {
        throw new PoolFormatException(
            meta, "names segment " + file + " of " + size + " bytes, but it has " + channel.size());
      }
      return channel.map(FileChannel.MapMode.READ_WRITE, 0, size);
    }
  }
}
