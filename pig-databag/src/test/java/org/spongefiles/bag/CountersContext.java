package org.spongefiles.bag;

import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.pig.backend.hadoop.executionengine.TaskContext;

/** A task context for Pig's status reporter backed by Hadoop's own counters, as in a task. */
final class CountersContext extends TaskContext<Counters> {
  private final Counters counters = new Counters();

  @Override
  public Counters get() {
    return counters;
  }

  @Override
  public Counter getCounter(Enum<?> name) {
    return counters.findCounter(name);
  }

  @Override
  public Counter getCounter(String group, String name) {
    return counters.findCounter(group, name);
  }

  @Override
  public boolean incrCounter(Enum<?> name, long delta) {
    counters.findCounter(name).increment(delta);
    return true;
  }

  @Override
  public boolean incrCounter(String group, String name, long delta) {
    counters.findCounter(group, name).increment(delta);
    return true;
  }

  long value(String name) {
    return counters.findCounter(BagCounter.GROUP, name).getValue();
  }
}
