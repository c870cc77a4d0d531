package org.spongefiles.merger;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.mapred.Counters;
import org.apache.hadoop.mapred.IFile;
import org.apache.hadoop.mapred.InputSplit;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.MROutputFiles;
import org.apache.hadoop.mapred.RawKeyValueIterator;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapred.ShuffleConsumerPlugin;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.task.reduce.MapHost;
import org.apache.hadoop.mapreduce.task.reduce.MapOutput;
import org.apache.hadoop.mapreduce.task.reduce.ShuffleClientMetrics;
import org.apache.hadoop.util.Progress;
import org.spongefiles.testkit.SpongeTestConf;

/**
 * Drives a reduce task's merge manager the way Hadoop's fetchers do (reserve, shuffle the bytes of
 * a real IFile, commit), without a job: map outputs of {@code Text -> IntWritable} records.
 */
final class ShuffleHarness {
  static final TaskAttemptID REDUCE = new TaskAttemptID("harness", 1, TaskType.REDUCE, 0, 0);
  private static final MapHost HOST = new MapHost("localhost", "localhost");

  final JobConf conf;
  final Counters counters = new Counters();
  final Reporter reporter = new CountersReporter(counters);
  private final ShuffleClientMetrics metrics;
  private int maps;

  ShuffleHarness(Path pool, Path disk) {
    this(new JobConf(SpongeTestConf.of(pool, disk, 16L << 20, 64L << 10)));
  }

  /** A harness whose reduce task is configured by {@code conf} (a pool and disk of its own). */
  ShuffleHarness(JobConf conf) {
    this.conf = conf;
    conf.setMapOutputKeyClass(Text.class);
    conf.setMapOutputValueClass(IntWritable.class);
    metrics = ShuffleClientMetrics.create(REDUCE, conf);
  }

  /** The plugin context a reduce task would give the shuffle. */
  ShuffleConsumerPlugin.Context<Text, IntWritable> context(CompressionCodec codec)
      throws IOException {
    return new ShuffleConsumerPlugin.Context<>(
        REDUCE,
        conf,
        FileSystem.getLocal(conf),
        null,
        null,
        reporter,
        codec,
        null,
        null,
        counters.findCounter(TaskCounter.SPILLED_RECORDS),
        counters.findCounter(TaskCounter.COMBINE_INPUT_RECORDS),
        counters.findCounter(TaskCounter.SHUFFLED_MAPS),
        counters.findCounter(TaskCounter.REDUCE_SHUFFLE_BYTES),
        counters.findCounter(TaskCounter.FAILED_SHUFFLE),
        counters.findCounter(TaskCounter.MERGED_MAP_OUTPUTS),
        null,
        new Progress(),
        new Progress(),
        null,
        new MROutputFiles(),
        null);
  }

  TaskAttemptID nextMap() {
    return new TaskAttemptID("harness", 1, TaskType.MAP, maps++, 0);
  }

  /** A map output as it leaves the map side: an IFile of the records, with its checksum. */
  byte[] mapOutput(Map<String, Integer> records) throws IOException {
    DataOutputBuffer buffer = new DataOutputBuffer();
    FSDataOutputStream out = new FSDataOutputStream(buffer, null);
    IFile.Writer<Text, IntWritable> writer =
        new IFile.Writer<>(conf, out, Text.class, IntWritable.class, null, null);
    for (Map.Entry<String, Integer> record : new TreeMap<>(records).entrySet()) {
      writer.append(new Text(record.getKey()), new IntWritable(record.getValue()));
    }
    writer.close();
    return java.util.Arrays.copyOf(buffer.getData(), buffer.getLength());
  }

  /** Copies {@code ifile} into {@code output} and commits it, as a fetcher does. */
  void fetch(MapOutput<Text, IntWritable> output, byte[] ifile) throws IOException {
    output.shuffle(
        HOST, new ByteArrayInputStream(ifile), ifile.length, ifile.length - 4, metrics, reporter);
    output.commit();
  }

  /** Every record the merge yields, in its order, as {@code key=value}. */
  static List<String> drain(RawKeyValueIterator merged) throws IOException {
    List<String> records = new ArrayList<>();
    Text key = new Text();
    IntWritable value = new IntWritable();
    while (merged.next()) {
      DataInputBuffer k = merged.getKey();
      key.readFields(k);
      DataInputBuffer v = merged.getValue();
      value.readFields(v);
      records.add(key + "=" + value.get());
    }
    merged.close();
    return records;
  }

  long counter(Enum<?> name) {
    return counters.findCounter(name).getValue();
  }

  long sponge(String name) {
    return counters.findCounter(MergerCounter.GROUP, name).getValue();
  }

  /** A reporter whose counters are a plain {@link Counters}, as a task's would be. */
  private static final class CountersReporter implements Reporter {
    private final Counters counters;

    CountersReporter(Counters counters) {
      this.counters = counters;
    }

    @Override
    public void setStatus(String status) {}

    @Override
    public Counters.Counter getCounter(Enum<?> name) {
      return counters.findCounter(name);
    }

    @Override
    public Counters.Counter getCounter(String group, String name) {
      return counters.findCounter(group, name);
    }

    @Override
    public void incrCounter(Enum<?> key, long amount) {
      counters.incrCounter(key, amount);
    }

    @Override
    public void incrCounter(String group, String counter, long amount) {
      counters.incrCounter(group, counter, amount);
    }

    @Override
    public InputSplit getInputSplit() {
      throw new UnsupportedOperationException("no input split in a reduce");
    }

    @Override
    public float getProgress() {
      return 0;
    }

    @Override
    public void progress() {}
  }
}
