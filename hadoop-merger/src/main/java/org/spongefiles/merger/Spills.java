package org.spongefiles.merger;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.fs.BufferedFSInputStream;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.mapred.Counters;
import org.apache.hadoop.mapred.IFile;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.Merger.Segment;
import org.apache.hadoop.mapreduce.CryptoUtils;
import org.apache.hadoop.mapreduce.task.reduce.InMemoryReader;
import org.spongefiles.core.SpongeFile;
import org.spongefiles.core.SpongeTask;

/**
 * How a reduce task's merge segments are stored and read: IFiles in SpongeFiles, written with the
 * job's map-output codec and, when {@code mapreduce.job.encrypted-intermediate-data} is on,
 * encrypted with the job's spill key exactly as Hadoop encrypts its on-disk spills ({@link
 * CryptoUtils}); and Hadoop merge segments over those files or over in-memory map outputs.
 */
final class Spills<K, V> {
  private final SpongeTask task;
  private final JobConf conf;
  private final CompressionCodec codec;
  private final Class<K> keyClass;
  private final Class<V> valueClass;
  private final int readBufferSize;
  private final Counters.Counter spilledRecords;
  private final Counters.Counter mergedMapOutputs;
  private final AtomicInteger sequence = new AtomicInteger();

  @SuppressWarnings("unchecked")
  Spills(
      SpongeTask task,
      JobConf conf,
      CompressionCodec codec,
      int readBufferSize,
      Counters.Counter spilledRecords,
      Counters.Counter mergedMapOutputs) {
    this.task = task;
    this.conf = conf;
    this.codec = codec;
    this.keyClass = (Class<K>) conf.getMapOutputKeyClass();
    this.valueClass = (Class<V>) conf.getMapOutputValueClass();
    this.readBufferSize = readBufferSize;
    this.spilledRecords = spilledRecords;
    this.mergedMapOutputs = mergedMapOutputs;
  }

  /** A new SpongeFile named after what it will hold and a sequence number. */
  SpongeFile create(String what) {
    return task.create(what + "-" + sequence.incrementAndGet());
  }

  /**
   * The stream a spill's bytes go through: buffered (an IFile writer writes a few bytes at a time),
   * and encrypted if the job says so.
   */
  FSDataOutputStream output(SpongeFile file) throws IOException {
    OutputStream buffered = new BufferedOutputStream(file.output(), readBufferSize);
    return CryptoUtils.wrapIfNecessary(conf, new FSDataOutputStream(buffered, null));
  }

  /** An IFile writer (with the job's codec) into {@code file}; closing it closes the file. */
  IFile.Writer<K, V> writer(SpongeFile file) throws IOException {
    return new IFile.Writer<>(conf, output(file), keyClass, valueClass, codec, null, true);
  }

  /**
   * A merge segment reading {@code spilled} once, in windows of {@code window} bytes, and deleting
   * it afterwards. Every record read is counted in SPILLED_RECORDS: each record written to a
   * SpongeFile is read back exactly once.
   */
  Segment<K, V> segment(SpilledSegment spilled, int window) throws IOException {
    FSDataInputStream in =
        new FSDataInputStream(
            new BufferedFSInputStream(
                new SpongeFSInputStream(spilled.file().input(window)), readBufferSize));
    try {
      in = CryptoUtils.wrapIfNecessary(conf, in);
      long length = spilled.length() - CryptoUtils.cryptoPadding(conf);
      IFile.Reader<K, V> reader =
          new SpongeSegmentReader<>(conf, in, length, codec, spilledRecords, spilled.file());
      return new Segment<>(reader, true, spilled.primary() ? mergedMapOutputs : null);
    } catch (IOException | RuntimeException e) {
      in.close();
      throw e;
    }
  }

  /** A merge segment over a map output held in memory (decompressed, without checksum). */
  Segment<K, V> segment(InMemoryOutput<K, V> output) throws IOException {
    byte[] data = output.memory();
    IFile.Reader<K, V> reader =
        new InMemoryReader<>(null, output.getMapId(), data, 0, data.length, conf);
    return new Segment<>(reader, true, output.isPrimaryMapOutput() ? mergedMapOutputs : null);
  }

  JobConf conf() {
    return conf;
  }

  CompressionCodec codec() {
    return codec;
  }

  Class<K> keyClass() {
    return keyClass;
  }

  Class<V> valueClass() {
    return valueClass;
  }
}
