package org.spongefiles.it.cluster;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.spongefiles.core.SpongeSettings;
import org.spongefiles.core.SpongeTask;
import org.spongefiles.core.TaskIdentity;
import org.spongefiles.core.config.ParsedConfig;
import org.spongefiles.core.pool.ChunkOwner;
import org.spongefiles.core.remote.ClientIdentity;
import org.spongefiles.core.remote.RemoteConnection;
import org.spongefiles.core.remote.ServerAddress;
import org.spongefiles.core.wire.ChunkHandle;
import org.spongefiles.core.wire.ClusterSecret;
import org.spongefiles.core.wire.WireException;
import org.spongefiles.it.MiniYarn;

/**
 * Another user's task trying to use chunks it does not own: a map-only job whose one map task
 * connects to sponge servers with the task's own identity and the cluster secret, as SpongeFiles'
 * remote tier does, and tries to READ, WRITE and FREE every chunk handle it finds in a side file
 * (one {@code <server host:port> <chunk index> <generation> <owner attempt>} line per chunk,
 * rewritten by the test while another job's tasks hold them). Each handle is tried once, when it
 * first appears; the task stops once the end file exists (the jobs ended) or after {@code seconds}.
 * Prints one {@code PROBE <millis> <line> READ=<outcome> WRITE=<outcome> FREE=<chunks freed>} line
 * per handle, an outcome being {@code ok} or the server's error code and message.
 *
 * <pre>
 * java -cp &lt;master conf&gt;:... TenantProbe &lt;hdfs dir&gt; &lt;job jar&gt; &lt;side file&gt; &lt;end file&gt; &lt;seconds&gt;
 * </pre>
 */
public final class TenantProbe {
  private static final String TARGETS = "probe.targets";
  private static final String END = "probe.end";
  private static final String SECONDS = "probe.seconds";

  private TenantProbe() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 5) {
      System.err.println(
          "usage: TenantProbe <hdfs dir> <job jar> <side file> <end file> <seconds>");
      System.exit(2);
    }
    Configuration conf = new Configuration();
    MiniYarn.smallJob(conf);
    conf.set(TARGETS, args[2]);
    conf.set(END, args[3]);
    conf.setInt(SECONDS, Integer.parseInt(args[4]));
    conf.setInt("mapreduce.task.timeout", 0);
    FileSystem fs = FileSystem.get(conf);
    org.apache.hadoop.fs.Path work = new org.apache.hadoop.fs.Path(args[0]);
    org.apache.hadoop.fs.Path input = new org.apache.hadoop.fs.Path(work, "probe-input");
    try (FSDataOutputStream out = fs.create(input, true)) {
      out.write("one map\n".getBytes(StandardCharsets.UTF_8));
    }
    org.apache.hadoop.fs.Path output = new org.apache.hadoop.fs.Path(work, "probe-output");
    fs.delete(output, true);
    Job job = Job.getInstance(conf, "tenant probe");
    job.setJar(args[1]);
    job.setMapperClass(ProbeMapper.class);
    job.setNumReduceTasks(0);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(NullWritable.class);
    FileInputFormat.addInputPath(job, input);
    FileOutputFormat.setOutputPath(job, output);
    boolean done = job.waitForCompletion(false);
    for (FileStatus part : fs.listStatus(output)) {
      if (part.getPath().getName().startsWith("part-")) {
        try (InputStream in = fs.open(part.getPath())) {
          System.out.print(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
      }
    }
    System.out.flush();
    System.exit(done ? 0 : 1);
  }

  /** The task: its own lease, identity and sessions; someone else's chunk handles. */
  public static final class ProbeMapper extends Mapper<LongWritable, Text, Text, NullWritable> {
    @Override
    public void run(Context context) throws IOException, InterruptedException {
      Configuration conf = context.getConfiguration();
      String attempt = context.getTaskAttemptID().toString();
      ParsedConfig values = SpongeTask.parse(conf);
      TaskIdentity me = TaskIdentity.current(values, attempt);
      ClientIdentity identity =
          ClientIdentity.leased(
              SpongeSettings.nodeServerEndpoint(values, me.node()),
              me.lease(),
              me.pid(),
              ChunkOwner.taskHash(attempt),
              attempt);
      ClusterSecret secret = SpongeSettings.clusterSecret(values);
      Path targets = Path.of(conf.get(TARGETS));
      Path end = Path.of(conf.get(END));
      long deadline = System.currentTimeMillis() + 1000L * conf.getInt(SECONDS, 60);
      Set<String> tried = new LinkedHashSet<>();
      Map<String, RemoteConnection> connections = new HashMap<>();
      try {
        while (!Files.exists(end) && System.currentTimeMillis() < deadline) {
          for (String line : lines(targets)) {
            if (tried.add(line)) {
              context.write(
                  new Text(probe(line, identity, secret, connections)), NullWritable.get());
            }
          }
          context.progress();
          Thread.sleep(50);
        }
      } finally {
        connections.values().forEach(RemoteConnection::close);
      }
    }

    private static List<String> lines(Path targets) throws IOException {
      try {
        return Files.readAllLines(targets);
      } catch (NoSuchFileException notYet) {
        return List.of();
      }
    }

    /** READ, WRITE and FREE one handle of {@code line} in this task's session on its server. */
    private static String probe(
        String line,
        ClientIdentity identity,
        ClusterSecret secret,
        Map<String, RemoteConnection> connections)
        throws IOException {
      String[] fields = line.split(" ");
      ChunkHandle chunk = new ChunkHandle(Integer.parseInt(fields[1]), Long.parseLong(fields[2]));
      long at = System.currentTimeMillis();
      RemoteConnection connection = connection(fields[0], identity, secret, connections);
      String read;
      try {
        connection.read(chunk, 0, ByteBuffer.allocate(4096));
        read = "ok";
      } catch (WireException e) {
        read = e.code() + ":" + e.getMessage().replace(' ', '_');
      }
      connection = connection(fields[0], identity, secret, connections);
      String write;
      try {
        byte[] garbage = new byte[4096];
        Arrays.fill(garbage, (byte) 0x5A);
        connection.write(chunk, 0, ByteBuffer.wrap(garbage));
        write = "ok";
      } catch (WireException e) {
        write = e.code() + ":" + e.getMessage().replace(' ', '_');
      }
      connection = connection(fields[0], identity, secret, connections);
      int freed = connection.free(List.of(chunk));
      return "PROBE " + at + " " + line + " READ=" + read + " WRITE=" + write + " FREE=" + freed;
    }

    /** This task's connection to {@code server}, opened anew if the last one broke. */
    private static RemoteConnection connection(
        String server,
        ClientIdentity identity,
        ClusterSecret secret,
        Map<String, RemoteConnection> connections)
        throws IOException {
      RemoteConnection connection = connections.get(server);
      if (connection == null || connection.isBroken()) {
        if (connection != null) {
          connection.close();
        }
        connection =
            RemoteConnection.open(
                ServerAddress.parse(server),
                identity,
                secret,
                Duration.ofSeconds(5),
                Duration.ofSeconds(10));
        connections.put(server, connection);
      }
      return connection;
    }
  }
}
