package org.spongefiles.merger;

import java.io.IOException;
import java.io.InputStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.IOUtils;
import org.apache.hadoop.io.compress.CodecPool;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.io.compress.Decompressor;
import org.apache.hadoop.mapred.IFileInputStream;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.task.reduce.MapHost;
import org.apache.hadoop.mapreduce.task.reduce.MapOutput;
import org.apache.hadoop.mapreduce.task.reduce.ShuffleClientMetrics;

/**
 * A map output fetched into the reduce's heap: its IFile checksum verified, decompressed, kept as
 * the raw IFile bytes the merge reads. Its size was reserved from the shuffle memory.
 */
final class InMemoryOutput<K, V> extends MapOutput<K, V> {
  private final SpongeMergeManager<K, V> merger;
  private final Configuration conf;
  private final CompressionCodec codec;
  private final byte[] memory;

  InMemoryOutput(
      TaskAttemptID mapId,
      int size,
      boolean primary,
      SpongeMergeManager<K, V> merger,
      Configuration conf,
      CompressionCodec codec) {
    super(mapId, size, primary);
    this.merger = merger;
    this.conf = conf;
    this.codec = codec;
    this.memory = new byte[size];
  }

  byte[] memory() {
    return memory;
  }

  @Override
  public void shuffle(
      MapHost host,
      InputStream input,
      long compressedLength,
      long decompressedLength,
      ShuffleClientMetrics metrics,
      Reporter reporter)
      throws IOException {
    InputStream in = new IFileInputStream(input, compressedLength, conf);
    Decompressor decompressor = null;
    if (codec != null) {
      decompressor = CodecPool.getDecompressor(codec);
      in = codec.createInputStream(in, decompressor);
    }
    try {
      IOUtils.readFully(in, memory, 0, memory.length);
      metrics.inputBytes(memory.length);
      reporter.progress();
      // Reading past the data makes the decompressor and the checksum check the trailing bytes.
      if (in.read() >= 0) {
        throw new IOException(
            "Map output of "
                + getMapId()
                + " from "
                + host.getHostName()
                + " is longer than the "
                + memory.length
                + " bytes announced");
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
