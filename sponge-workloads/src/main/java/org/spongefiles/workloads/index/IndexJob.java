package org.spongefiles.workloads.index;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.WritableComparator;
import org.apache.hadoop.io.WritableUtils;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Partitioner;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;

/**
 * A positional inverted index of {@link IndexInput}'s documents: for every term and every document
 * holding it, one output line {@code <term>\t<doc>\t<position>,<position>...}, terms in order
 * within a reducer, documents and positions ascending. Each occurrence travels as its own key
 * {@code <term>\t<doc, 10 digits>\t<position, 2 digits>} (so the shuffle sorts the postings, a
 * secondary sort); keys are partitioned and grouped by their term, so the reducer of the hot term
 * gets most bytes and walks its postings in order without holding them.
 */
public final class IndexJob {
  private IndexJob() {}

  public static Job create(Configuration conf, Path input, Path output, int reducers)
      throws IOException {
    Job job = Job.getInstance(conf, "inverted index, " + reducers + " reducers");
    job.setJarByClass(IndexJob.class);
    job.setMapperClass(PostingMapper.class);
    job.setPartitionerClass(TermPartitioner.class);
    job.setGroupingComparatorClass(TermGrouping.class);
    job.setReducerClass(PostingReducer.class);
    job.setMapOutputKeyClass(Text.class);
    job.setMapOutputValueClass(NullWritable.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(Text.class);
    job.setNumReduceTasks(reducers);
    FileInputFormat.addInputPath(job, input);
    FileOutputFormat.setOutputPath(job, output);
    return job;
  }

  /** The reducer of {@code term} among {@code partitions}. */
  public static int partition(String term, int partitions) {
    int mixed = term.hashCode() * 0x9E3779B9;
    return Integer.remainderUnsigned(mixed ^ (mixed >>> 16), partitions);
  }

  /** The length of the term at the start of a posting key (up to its first tab). */
  static int termLength(byte[] bytes, int start, int length) {
    for (int i = 0; i < length; i++) {
      if (bytes[start + i] == '\t') {
        return i;
      }
    }
    return length;
  }

  /** One key per word of a document. */
  public static final class PostingMapper extends Mapper<LongWritable, Text, Text, NullWritable> {
    private final Text key = new Text();

    @Override
    protected void map(LongWritable offset, Text line, Context context)
        throws IOException, InterruptedException {
      String text = line.toString();
      int tab = text.indexOf('\t');
      if (tab < 1) {
        throw new IOException("Not a document line (<doc>\\t<words>) at offset " + offset);
      }
      long doc = Long.parseLong(text.substring(0, tab));
      String[] words = text.substring(tab + 1).split(" ");
      for (int position = 0; position < words.length; position++) {
        key.set(String.format(Locale.ROOT, "%s\t%010d\t%02d", words[position], doc, position));
        context.write(key, NullWritable.get());
      }
    }
  }

  /** Partitions by the key's term alone. */
  public static final class TermPartitioner extends Partitioner<Text, NullWritable> {
    @Override
    public int getPartition(Text key, NullWritable nothing, int partitions) {
      int length = termLength(key.getBytes(), 0, key.getLength());
      return partition(new String(key.getBytes(), 0, length, StandardCharsets.UTF_8), partitions);
    }
  }

  /** One reduce group per term: compares the keys' terms alone. */
  public static final class TermGrouping extends WritableComparator {
    public TermGrouping() {
      super(Text.class);
    }

    @Override
    public int compare(byte[] b1, int s1, int l1, byte[] b2, int s2, int l2) {
      // A serialized Text starts with its length as a vint.
      int n1 = WritableUtils.decodeVIntSize(b1[s1]);
      int n2 = WritableUtils.decodeVIntSize(b2[s2]);
      return compareBytes(
          b1,
          s1 + n1,
          termLength(b1, s1 + n1, l1 - n1),
          b2,
          s2 + n2,
          termLength(b2, s2 + n2, l2 - n2));
    }

    @Override
    @SuppressWarnings("rawtypes")
    public int compare(
        org.apache.hadoop.io.WritableComparable a, org.apache.hadoop.io.WritableComparable b) {
      Text x = (Text) a;
      Text y = (Text) b;
      return compareBytes(
          x.getBytes(),
          0,
          termLength(x.getBytes(), 0, x.getLength()),
          y.getBytes(),
          0,
          termLength(y.getBytes(), 0, y.getLength()));
    }
  }

  /**
   * Walks a term's postings in order (Hadoop sets the key to each value's as it iterates) and
   * writes one line per document.
   */
  public static final class PostingReducer extends Reducer<Text, NullWritable, Text, Text> {
    private final Text term = new Text();
    private final Text postings = new Text();

    @Override
    protected void reduce(Text key, Iterable<NullWritable> occurrences, Context context)
        throws IOException, InterruptedException {
      String currentDoc = null;
      StringBuilder positions = new StringBuilder();
      for (NullWritable ignored : occurrences) {
        String[] fields = key.toString().split("\t");
        if (fields.length != 3) {
          throw new IOException("Not a posting key (<term>\\t<doc>\\t<position>): " + key);
        }
        String doc = Long.toString(Long.parseLong(fields[1]));
        String position = Integer.toString(Integer.parseInt(fields[2]));
        if (!doc.equals(currentDoc)) {
          if (currentDoc != null) {
            write(context, currentDoc, positions);
          }
          term.set(fields[0]);
          currentDoc = doc;
          positions.setLength(0);
        } else {
          positions.append(',');
        }
        positions.append(position);
      }
      write(context, currentDoc, positions);
    }

    private void write(Context context, String doc, StringBuilder positions)
        throws IOException, InterruptedException {
      postings.set(doc + "\t" + positions);
      context.write(term, postings);
    }
  }
}
