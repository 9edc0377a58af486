// Benchmark twin of bench/run.ts for BookKeeper's own Java client, compiled with javac against the harness's
// BookKeeper jars at bench time (nothing built is committed). Same ledger shape (E=3, Qw=2, Qa=2, CRC32C, empty
// password), same payloads, same phases: sequential adds (one in flight) for latency, then a window of
// asynchronous adds for throughput.
//   java BookKeeperBench <metadataServiceUri> <entryBytes> <warmup> <latencyCount> <throughputCount> <window>
// Prints: "result bytes=<n> p50=<ms> p99=<ms> mean=<ms> throughput=<entries/s>".
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.bookkeeper.client.BKException;
import org.apache.bookkeeper.client.BookKeeper;
import org.apache.bookkeeper.client.LedgerHandle;
import org.apache.bookkeeper.conf.ClientConfiguration;

public final class BookKeeperBench {
  private BookKeeperBench() {}

  public static void main(String[] args) throws Exception {
    ClientConfiguration conf = new ClientConfiguration();
    conf.setMetadataServiceUri(args[0]);
    int bytes = Integer.parseInt(args[1]);
    int warmup = Integer.parseInt(args[2]);
    int latencyCount = Integer.parseInt(args[3]);
    int throughputCount = Integer.parseInt(args[4]);
    int window = Integer.parseInt(args[5]);
    byte[] payload = new byte[bytes];
    new Random(42).nextBytes(payload);
    BookKeeper bk = new BookKeeper(conf);
    LedgerHandle handle = bk.createLedger(3, 2, 2, BookKeeper.DigestType.CRC32C, new byte[0]);
    for (int i = 0; i < warmup; i++) handle.addEntry(payload);
    double[] samples = new double[latencyCount];
    for (int i = 0; i < latencyCount; i++) {
      long started = System.nanoTime();
      handle.addEntry(payload);
      samples[i] = (System.nanoTime() - started) / 1e6;
    }
    Arrays.sort(samples);
    double mean = Arrays.stream(samples).average().orElse(Double.NaN);
    Semaphore permits = new Semaphore(window);
    CountDownLatch done = new CountDownLatch(throughputCount);
    AtomicInteger failures = new AtomicInteger();
    long started = System.nanoTime();
    for (int i = 0; i < throughputCount; i++) {
      permits.acquire();
      handle.asyncAddEntry(payload, (rc, lh, entryId, ctx) -> {
        if (rc != BKException.Code.OK) failures.incrementAndGet();
        permits.release();
        done.countDown();
      }, null);
    }
    done.await();
    double seconds = (System.nanoTime() - started) / 1e9;
    handle.close();
    bk.deleteLedger(handle.getId());
    if (failures.get() > 0) throw new IllegalStateException(failures.get() + " adds failed");
    System.out.printf("result bytes=%d p50=%.3f p99=%.3f mean=%.3f throughput=%.1f%n", bytes,
        samples[(int) Math.ceil(0.5 * latencyCount) - 1], samples[(int) Math.ceil(0.99 * latencyCount) - 1], mean, throughputCount / seconds);
    System.out.flush();
    bk.close();
    System.exit(0);
  }
}
