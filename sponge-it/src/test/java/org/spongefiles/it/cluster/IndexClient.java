package org.spongefiles.it.cluster;

import java.nio.file.Path;
import java.util.Arrays;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.MRConfig;
import org.spongefiles.it.MiniYarn;
import org.spongefiles.workloads.index.IndexJob;

/**
 * {@link MedianClient} for the inverted index ({@link IndexJob}): the same arguments and output,
 * the number of reducers in place of the counts.
 *
 * <pre>
 * java -cp &lt;master conf&gt;:... IndexClient stock|ours &lt;local input dir&gt; &lt;hdfs dir&gt; &lt;local output file&gt; &lt;reducers&gt; [key=value ...]
 * </pre>
 */
public final class IndexClient {
  private IndexClient() {}

  public static void main(String[] args) throws Exception {
    if (args.length < 5
        || !(args[0].equals(MedianClient.STOCK) || args[0].equals(MedianClient.OURS))) {
      System.err.println(
          "usage: IndexClient stock|ours <local input dir> <hdfs dir> <local output file>"
              + " <reducers> [key=value ...]");
      System.exit(2);
    }
    Configuration conf = new Configuration();
    FileSystem fs = FileSystem.get(conf);
    org.apache.hadoop.fs.Path work = new org.apache.hadoop.fs.Path(args[2]);
    org.apache.hadoop.fs.Path input = new org.apache.hadoop.fs.Path(work, "input");
    if (!fs.exists(input)) {
      fs.copyFromLocalFile(new org.apache.hadoop.fs.Path(Path.of(args[1]).toUri()), input);
    }
    org.apache.hadoop.fs.Path output = new org.apache.hadoop.fs.Path(work, "output-" + args[0]);
    fs.delete(output, true);
    MiniYarn.smallJob(conf);
    for (String setting : Arrays.asList(args).subList(5, args.length)) {
      int equals = setting.indexOf('=');
      if (equals < 1) {
        System.err.println("IndexClient: expected key=value, got '" + setting + "'");
        System.exit(2);
      }
      conf.set(setting.substring(0, equals), setting.substring(equals + 1));
    }
    if (args[0].equals(MedianClient.STOCK)) {
      conf.set(MRConfig.SHUFFLE_CONSUMER_PLUGIN, MedianClient.HADOOP_SHUFFLE);
    }
    Job job = IndexJob.create(conf, input, output, Integer.parseInt(args[4]));
    job.setJobName(job.getJobName() + " (" + args[0] + ")");
    System.exit(MedianClient.runAndReport(job, fs, output, Path.of(args[3])) ? 0 : 1);
  }
}
