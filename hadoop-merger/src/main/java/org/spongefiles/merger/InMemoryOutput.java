package org.spongefiles.merger;

import java.io.IOException;
import java.io.InputStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.IOUtils;
import org.apache.hadoop.io.compress.CodecPool;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.io.compress.Decompressor;
import org.apache.hadoop.mapreduce.TaskAttemptID;

/**
 * A map output fetched into the reduce's heap: its IFile checksum verified, decompressed, kept as
 * the raw IFile bytes the merge reads. Its size was reserved from the shuffle memory.
 */
final class InMemoryOutput<K, V> extends FetchedOutput<K, V> {
  private final SpongeMergeManager<K, V> merger;
  private final CompressionCodec codec;
  private final byte[] memory;

  InMemoryOutput(
      TaskAttemptID mapId,
      int size,
      boolean primary,
      SpongeMergeManager<K, V> merger,
      Configuration conf,
      CompressionCodec codec) {
    super(mapId, size, primary, conf);
    this.merger = merger;
    this.codec = codec;
    this.memory = new byte[size];
  }

  byte[] memory() {
    return memory;
  }

  @Override
  void receive(Fetch fetch) throws IOException {
    InputStream in = fetch.in;
    Decompressor decompressor = null;
    if (codec != null) {
      decompressor = CodecPool.getDecompressor(codec);
      in = codec.createInputStream(in, decompressor);
    }
    try {
      IOUtils.readFully(in, memory, 0, memory.length);
      fetch.received(memory.length);
      // Reading past the data makes the decompressor and the checksum check the trailing bytes.
      if (in.read() >= 0) {
        throw fetch.wrongLength("is longer than the " + memory.length + " bytes announced");
      }
    } finally {
      if (decompressor != null) {
        CodecPool.returnDecompressor(decompressor);
      }
    }
  }

  @Override
  public void commit() {
    merger.committed(this);
  }

  @Override
  public void abort() {
    merger.unreserve(memory.length);
  }

  @Override
  public String getDescription() {
    return "MEMORY";
  }
}
