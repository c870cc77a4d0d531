package org.spongefiles.workloads.pig;

import java.io.IOException;
import java.io.Serializable;
import java.util.Comparator;
import org.apache.pig.EvalFunc;
import org.apache.pig.backend.executionengine.ExecException;
import org.apache.pig.data.BagFactory;
import org.apache.pig.data.DataBag;
import org.apache.pig.data.DataType;
import org.apache.pig.data.Tuple;
import org.apache.pig.data.TupleFactory;
import org.apache.pig.impl.logicalLayer.schema.Schema;

/**
 * The Spam Quantiles UDF, as hastily written as in the paper: it puts the group's whole page tuples
 * (nothing projected away) into a sorted bag ordered by spam score, then walks the bag in order to
 * pick the deciles. Output: (pages, q0, q10, ..., q100), where q is the score at position
 * round(q/100 * (pages - 1)) of the sorted scores.
 */
public final class SpamQuantiles extends EvalFunc<Tuple> {
  /** Quantile steps: deciles. */
  static final int STEPS = 10;

  private final int spamField;

  /** {@code spamField}: the position of the spam score in each page tuple. */
  public SpamQuantiles(String spamField) {
    this.spamField = UdfArgs.intAtLeast("SpamQuantiles", "spamField", spamField, 0);
  }

  /** Orders pages by spam score, pages without a score first. */
  static final class BySpam implements Comparator<Tuple>, Serializable {
    private static final long serialVersionUID = 1L;
    private final int field;

    BySpam(int field) {
      this.field = field;
    }

    @Override
    public int compare(Tuple a, Tuple b) {
      try {
        Double x = (Double) a.get(field);
        Double y = (Double) b.get(field);
        return x == null ? (y == null ? 0 : -1) : y == null ? 1 : Double.compare(x, y);
      } catch (ExecException e) {
        throw new IllegalStateException("No spam score in field " + field + " of " + a, e);
      }
    }
  }

  @Override
  public Tuple exec(Tuple input) throws IOException {
    if (input == null || input.size() == 0 || input.get(0) == null) {
      return null;
    }
    DataBag pages = (DataBag) input.get(0);
    DataBag sorted = BagFactory.getInstance().newSortedBag(new BySpam(spamField));
    try {
      for (Tuple page : pages) {
        sorted.add(page);
      }
      long count = sorted.size();
      Tuple result = TupleFactory.getInstance().newTuple(STEPS + 2);
      result.set(0, count);
      long index = 0;
      int step = 0;
      for (Tuple page : sorted) {
        while (step <= STEPS && index == position(step, count)) {
          result.set(step + 1, page.get(spamField));
          step++;
        }
        index++;
      }
      return result;
    } finally {
      sorted.clear();
    }
  }

  /** Where quantile {@code step} of {@code count} sorted values is. */
  static long position(int step, long count) {
    return Math.round(step / (double) STEPS * (count - 1));
  }

  @Override
  public Schema outputSchema(Schema input) {
    Schema row = new Schema();
    row.add(new Schema.FieldSchema("pages", DataType.LONG));
    for (int step = 0; step <= STEPS; step++) {
      row.add(new Schema.FieldSchema("q" + step * (100 / STEPS), DataType.DOUBLE));
    }
    try {
      return new Schema(new Schema.FieldSchema("quantiles", row, DataType.TUPLE));
    } catch (org.apache.pig.impl.logicalLayer.FrontendException e) {
      throw new IllegalStateException(e);
    }
  }
}
