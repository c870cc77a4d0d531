package org.spongefiles.bag.task;

import java.io.Closeable;
import java.io.IOException;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import org.apache.hadoop.conf.Configuration;
import org.apache.pig.backend.hadoop.executionengine.mapReduceLayer.PigMapReduce;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which task a new bag belongs to, and when a task's SpongeFiles are freed.
 *
 * <p>Pig's map and reduce tasks put their job configuration in a thread-local ({@code
 * PigMapReduce.sJobConfInternal}) when they set up; Hadoop puts the attempt id in it ({@value
 * #ATTEMPT_KEY}). A bag created in such a thread belongs to that attempt, whose configuration also
 * carries the script's {@code sponge.*} keys. A bag created in any other thread (Pig's front end, a
 * combiner's spill thread, a UDF's own thread) belongs to the process-wide task {@value
 * #PROCESS_TASK}.
 *
 * <p>A task attempt ends, and its SpongeFiles are deleted, when the thread that ran it starts
 * another attempt or dies (Hadoop's LocalJobRunner runs attempts one after another in pool
 * threads), and at the latest when the JVM exits (a YARN task JVM runs one attempt): the shared
 * registry checks owner threads every second and closes everything from a shutdown hook.
 */
public final class TaskSponges implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(TaskSponges.class);

  /** Where Hadoop puts the attempt id in a task's configuration. */
  public static final String ATTEMPT_KEY = "mapreduce.task.attempt.id";

  /** Task id of the bags created outside any task. */
  public static final String PROCESS_TASK = "pig-process";

  private final Configuration processConf;
  private final Function<Configuration, BagSettings> settings;
  private final Map<String, BagTask> attempts = new LinkedHashMap<>();
  private final ThreadLocal<Binding> binding = new ThreadLocal<>();
  private BagTask process;

  /** The latest task attempt's configuration, not kept alive past its task. */
  private volatile WeakReference<Configuration> latestTaskConf = new WeakReference<>(null);

  private boolean closed;

  /** The last task a thread resolved, and the configuration object it resolved it from. */
  private static final class Binding {
    final Configuration conf;
    final BagTask task;

    Binding(Configuration conf, BagTask task) {
      this.conf = conf;
      this.task = task;
    }
  }

  /**
   * A registry whose process-wide task reads {@code processConf}; null means the configuration of
   * the latest task attempt seen, else Hadoop's default resources. {@code settings} turns a task's
   * configuration into its bags' settings, checking every key (so a bad recipe fails the task at
   * its first bag, not at its first spill).
   */
  public TaskSponges(Configuration processConf, Function<Configuration, BagSettings> settings) {
    this.processConf = processConf;
    this.settings = Objects.requireNonNull(settings, "settings cannot be null");
  }

  /**
   * The registry of a JVM (the bag factory keeps one): tasks read the latest attempt's
   * configuration, their threads are checked every second and every task is closed from a shutdown
   * hook.
   */
  public static TaskSponges forJvm(Function<Configuration, BagSettings> settings) {
    TaskSponges registry = new TaskSponges(null, settings);
    Runtime.getRuntime()
        .addShutdownHook(new Thread(registry::closeQuietly, "sponge-pig-bags-shutdown"));
    Thread janitor = new Thread(registry::sweepEverySecond, "sponge-pig-bags-janitor");
    janitor.setDaemon(true);
    janitor.start();
    return registry;
  }

  /** The task of a bag created now by the calling thread. */
  public BagTask current() {
    Configuration conf = PigMapReduce.sJobConfInternal.get();
    Binding bound = binding.get();
    if (bound != null && bound.conf == conf && !bound.task.isClosed()) {
      return bound.task;
    }
    BagTask task = resolve(conf);
    if (bound != null && bound.task != task && bound.task.owner() == Thread.currentThread()) {
      end(bound.task, "its thread started " + task.taskId());
    }
    binding.set(new Binding(conf, task));
    return task;
  }

  private synchronized BagTask resolve(Configuration conf) {
    sweep();
    String attempt = conf == null ? null : conf.getTrimmed(ATTEMPT_KEY);
    if (attempt == null || attempt.isEmpty()) {
      return processTask();
    }
    latestTaskConf = new WeakReference<>(conf);
    BagTask task = attempts.get(attempt);
    if (task == null || task.isClosed()) {
      task = new BagTask(attempt, settings.apply(conf), conf, Thread.currentThread());
      attempts.put(attempt, task);
      if (closed) {
        closeTask(task, "the JVM is exiting");
      }
    }
    return task;
  }

  private BagTask processTask() {
    if (process == null || process.isClosed() && !closed) {
      if (processConf != null) {
        process = new BagTask(PROCESS_TASK, settings.apply(processConf), processConf, null);
      } else {
        // A copy of a whole job configuration is kept only once a bag of this task spills.
        process =
            new BagTask(
                PROCESS_TASK, settings.apply(latestOrDefault()), this::latestOrDefault, null);
      }
      if (closed) {
        closeTask(process, "the JVM is exiting");
      }
    }
    return process;
  }

  /** A copy of the latest task attempt's configuration, or Hadoop's default resources. */
  private Configuration latestOrDefault() {
    Configuration latest = latestTaskConf.get();
    return latest != null ? new Configuration(latest) : new Configuration();
  }

  /** Closes the tasks whose thread has died. */
  public synchronized void sweep() {
    Iterator<BagTask> open = attempts.values().iterator();
    while (open.hasNext()) {
      BagTask task = open.next();
      if (task.isClosed()) {
        open.remove();
      } else if (task.owner() != null && !task.owner().isAlive()) {
        open.remove();
        closeTask(task, "its thread " + task.owner().getName() + " ended");
      }
    }
  }

  private synchronized void end(BagTask task, String why) {
    attempts.remove(task.taskId(), task);
    closeTask(task, why);
  }

  private static void closeTask(BagTask task, String why) {
    LOG.debug("Task {} ended ({}); deleting its bags' SpongeFiles", task.taskId(), why);
    try {
      task.close();
    } catch (IOException | RuntimeException e) {
      LOG.warn("Could not free the SpongeFiles of {}: {}", task, e.toString());
    }
  }

  /** The tasks whose bags may still hold SpongeFiles. */
  public synchronized List<BagTask> tasks() {
    List<BagTask> open = new ArrayList<>();
    for (BagTask task : attempts.values()) {
      if (!task.isClosed()) {
        open.add(task);
      }
    }
    if (process != null && !process.isClosed()) {
      open.add(process);
    }
    return open;
  }

  private void sweepEverySecond() {
    while (true) {
      try {
        Thread.sleep(1000);
      } catch (InterruptedException e) {
        return;
      }
      synchronized (this) {
        if (closed) {
          return;
        }
        sweep();
      }
    }
  }

  /** Closes every task: their bags' SpongeFiles are deleted. Idempotent. */
  @Override
  public void close() throws IOException {
    List<BagTask> open;
    synchronized (this) {
      closed = true;
      open = tasks();
      attempts.clear();
    }
    IOException failure = null;
    for (BagTask task : open) {
      try {
        task.close();
      } catch (IOException e) {
        if (failure == null) {
          failure = e;
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
  }

  private void closeQuietly() {
    try {
      close();
    } catch (IOException | RuntimeException e) {
      LOG.warn("Could not free the SpongeFiles of Pig's bags at exit: {}", e.toString());
    }
  }
}
