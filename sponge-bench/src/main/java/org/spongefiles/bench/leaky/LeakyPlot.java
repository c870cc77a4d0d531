package org.spongefiles.bench.leaky;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import javax.imageio.ImageIO;
import org.spongefiles.workloads.leaky.LeakyWorkload;

/**
 * Draws reduce time against data-to-memory ratio, one panel per workload, baseline and leaky
 * buffer, with runs that did not finish marked above the curves (Java2D, headless).
 */
final class LeakyPlot {
  private static final int PANEL_W = 560;
  private static final int PANEL_H = 420;
  private static final int LEFT = 70;
  private static final int RIGHT = 20;
  private static final int TOP = 50;
  private static final int BOTTOM = 60;
  private static final Color BASELINE = new Color(200, 60, 40);
  private static final Color LEAKY = new Color(30, 100, 200);

  private LeakyPlot() {}

  static void write(Path file, List<LeakyRun> runs) throws IOException {
    System.setProperty("java.awt.headless", "true");
    LeakyWorkload[] workloads = {LeakyWorkload.GROUPBY, LeakyWorkload.JOIN};
    BufferedImage image =
        new BufferedImage(PANEL_W * workloads.length, PANEL_H, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = image.createGraphics();
    g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
    g.setRenderingHint(
        RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
    g.setColor(Color.WHITE);
    g.fillRect(0, 0, image.getWidth(), image.getHeight());
    for (int i = 0; i < workloads.length; i++) {
      List<LeakyRun> mine = new ArrayList<>();
      for (LeakyRun run : runs) {
        if (run.workload == workloads[i] && !run.status.equals("skipped")) {
          mine.add(run);
        }
      }
      panel(g, i * PANEL_W, workloads[i], mine);
    }
    g.dispose();
    ImageIO.write(image, "png", file.toFile());
  }

  private static void panel(Graphics2D g, int x0, LeakyWorkload workload, List<LeakyRun> runs) {
    double minRatio = Double.MAX_VALUE;
    double maxRatio = 0;
    double maxSeconds = 1;
    for (LeakyRun run : runs) {
      minRatio = Math.min(minRatio, run.ratio);
      maxRatio = Math.max(maxRatio, run.ratio);
      if (run.ok()) {
        maxSeconds = Math.max(maxSeconds, run.reduceMs / 1000.0);
      }
    }
    if (runs.isEmpty()) {
      return;
    }
    double top = maxSeconds * 1.15;
    double step = top <= 8 ? 1 : top <= 16 ? 2 : top <= 40 ? 5 : 10;
    double yMax = step * Math.ceil(top / step);
    int w = PANEL_W - LEFT - RIGHT;
    int h = PANEL_H - TOP - BOTTOM;
    double logMin = Math.log(minRatio) / Math.log(2);
    double logSpan = Math.max(1e-9, Math.log(maxRatio) / Math.log(2) - logMin);

    g.setColor(Color.BLACK);
    g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 14));
    g.drawString(workload.label(), x0 + LEFT, 22);
    g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
    g.drawString("reduce time (s); x: failed (OOM or timeout)", x0 + LEFT, 38);
    g.drawLine(x0 + LEFT, TOP, x0 + LEFT, TOP + h);
    g.drawLine(x0 + LEFT, TOP + h, x0 + LEFT + w, TOP + h);
    for (double v = 0; v <= yMax + 1e-9; v += step) {
      int y = TOP + h - (int) (h * v / yMax);
      g.setColor(new Color(225, 225, 225));
      g.drawLine(x0 + LEFT + 1, y, x0 + LEFT + w, y);
      g.setColor(Color.BLACK);
      g.drawString(String.format(Locale.ROOT, "%.0f", v), x0 + LEFT - 30, y + 4);
      g.setColor(Color.BLACK);
    }
    List<Double> ticks = new ArrayList<>();
    for (LeakyRun run : runs) {
      if (!ticks.contains(run.ratio)) {
        ticks.add(run.ratio);
      }
    }
    int lastLabel = -1000;
    for (double ratio : ticks) {
      int x = x0 + LEFT + (int) (w * (Math.log(ratio) / Math.log(2) - logMin) / logSpan);
      g.drawLine(x, TOP + h, x, TOP + h + 4);
      if (x - lastLabel >= 34) {
        g.drawString(LeakyBench.format(ratio), x - 10, TOP + h + 18);
        lastLabel = x;
      }
    }
    g.drawString(
        "data-to-memory ratio (reduce input bytes / heap), log scale", x0 + LEFT, PANEL_H - 18);

    String[] variants = {"baseline", "leaky"};
    Color[] colors = {BASELINE, LEAKY};
    for (int v = 0; v < variants.length; v++) {
      g.setColor(colors[v]);
      g.setStroke(new BasicStroke(2f));
      int px = -1;
      int py = -1;
      for (LeakyRun run : runs) {
        if (!run.variant.equals(variants[v])) {
          continue;
        }
        int x = x0 + LEFT + (int) (w * (Math.log(run.ratio) / Math.log(2) - logMin) / logSpan);
        if (run.ok()) {
          int y = TOP + h - (int) (h * (run.reduceMs / 1000.0) / yMax);
          if (px >= 0) {
            g.drawLine(px, py, x, y);
          }
          g.fillOval(x - 4, y - 4, 8, 8);
          px = x;
          py = y;
        } else {
          int y = TOP + 8 + 12 * v;
          g.drawLine(x - 5, y - 5, x + 5, y + 5);
          g.drawLine(x - 5, y + 5, x + 5, y - 5);
          px = -1;
        }
      }
      g.setStroke(new BasicStroke(1f));
      int ly = 22 + 16 * v;
      g.fillRect(x0 + LEFT + w - 150, ly - 8, 12, 8);
      g.setColor(Color.BLACK);
      g.drawString(
          variants[v].equals("leaky") ? "leaky buffer" : "HashMap<K, List<V>>",
          x0 + LEFT + w - 132,
          ly);
    }
  }
}
