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
 * another attempt or dies (Hadoop's LocalJobRunner runs attempts one after another in pool threads,
 * and ends a job's pool threads with the job), and at the latest when the JVM exits (a YARN task
 * JVM runs one attempt): the shared registry's janitor waits on the thread of an open attempt
 * ({@link Thread#join}), so an attempt is closed as its thread ends, before the next job of a Pig
 * script runs, and everything is closed from a shutdown hook. A closed attempt keeps nothing of its
 * task (see {@link BagTask#close()}).
 *
 * <p>The janitor and the shutdown hook live as long as the JVM, so they do not inherit the
 * inheritable thread-locals of the thread that made the registry (Pig's {@code ScriptState} of the
 * script then running, a task's logging context).
 */
public final class TaskSponges implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(TaskSponges.class);

  /** Where Hadoop puts the attempt id in a task's configuration. */
  public static final String ATTEMPT_KEY = "mapreduce.task.attempt.id";

  /** Task id of the bags created outside any task. */
  public static final String PROCESS_TASK = "pig-process";

  /** Longest the janitor waits on one thread before it looks at the others again. */
  private static final long WATCH_MILLIS = 1000;

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
   * configuration, a janitor closes each attempt as its thread ends and every task is closed from a
   * shutdown hook.
   */
  public static TaskSponges forJvm(Function<Configuration, BagSettings> settings) {
    TaskSponges registry = new TaskSponges(null, settings);
    Runtime.getRuntime()
        .addShutdownHook(jvmThread(registry::closeQuietly, "sponge-pig-bags-shutdown"));
    registry.startJanitor();
    return registry;
  }

  /**
   * Starts a daemon thread that closes each attempt as its thread ends (without it, an ended
   * attempt is closed when another bag is made). Once per registry.
   */
  public void startJanitor() {
    Thread janitor = jvmThread(this::watchOwners, "sponge-pig-bags-janitor");
    janitor.setDaemon(true);
    janitor.start();
  }

  /** A thread that inherits no inheritable thread-local of the thread making it. */
  private static Thread jvmThread(Runnable run, String name) {
    return new Thread(null, run, name, 0, false);
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
      notifyAll();
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

  /**
   * Closes the attempts whose thread ended, waiting in between on the thread of an open one, or,
   * when none is open, until one is (each wait at most {@value #WATCH_MILLIS} ms, so that the ends
   * of other threads are seen too).
   */
  private void watchOwners() {
    try {
      while (true) {
        Thread watched;
        synchronized (this) {
          if (closed) {
            return;
          }
          sweep();
          watched = liveOwner();
          if (watched == null) {
            wait(WATCH_MILLIS); // resolve() wakes it up for a new attempt
            continue;
          }
        }
        watched.join(WATCH_MILLIS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** The thread of an open attempt, the oldest first; null when none runs. */
  private synchronized Thread liveOwner() {
    for (BagTask task : attempts.values()) {
      if (!task.isClosed() && task.owner() != null && task.owner().isAlive()) {
        return task.owner();
      }
    }
    return null;
  }

  /** Closes every task: their bags' SpongeFiles are deleted. Idempotent. */
  @Override
  public void close() throws IOException {
    List<BagTask> open;
    synchronized (this) {
      closed = true;
      open = tasks();
      attempts.clear();
      notifyAll(); // the janitor ends
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
