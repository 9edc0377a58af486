// Test-only interop driver, compiled with javac against the harness's BookKeeper jars at test time (nothing
// built is committed). It uses BookKeeper's own Java client so the TypeScript client can be checked against it:
//   read  <metadataServiceUri> <password> <recover:true|false> <ledgerId>...
//   write <metadataServiceUri> <password> <CRC32C|CRC32|MAC|DUMMY> <E> <Qw> <Qa> <count> <close:true|false>
// Output lines: "ledger <id> lac=<n> closed=<bool> length=<n>", "entry <ledgerId> <entryId> <hex payload>", "done".
import java.nio.charset.StandardCharsets;
import java.util.Enumeration;
import java.util.HexFormat;
import org.apache.bookkeeper.client.BookKeeper;
import org.apache.bookkeeper.client.LedgerEntry;
import org.apache.bookkeeper.client.LedgerHandle;
import org.apache.bookkeeper.conf.ClientConfiguration;

public final class BookKeeperInterop {
  private BookKeeperInterop() {}

  private static void describe(LedgerHandle handle) {
    System.out.println("ledger " + handle.getId() + " lac=" + handle.getLastAddConfirmed() + " closed=" + handle.isClosed() + " length=" + handle.getLength());
  }

  public static void main(String[] args) throws Exception {
    ClientConfiguration conf = new ClientConfiguration();
    conf.setMetadataServiceUri(args[1]);
    byte[] password = args[2].getBytes(StandardCharsets.UTF_8);
    HexFormat hex = HexFormat.of();
    BookKeeper bk = new BookKeeper(conf);
    if (args[0].equals("read")) {
      boolean recover = Boolean.parseBoolean(args[3]);
      for (int i = 4; i < args.length; i++) {
        long ledgerId = Long.parseLong(args[i]);
        LedgerHandle handle = recover
            ? bk.openLedger(ledgerId, BookKeeper.DigestType.CRC32C, password)
            : bk.openLedgerNoRecovery(ledgerId, BookKeeper.DigestType.CRC32C, password);
        describe(handle);
        if (handle.getLastAddConfirmed() >= 0) {
          Enumeration<LedgerEntry> entries = handle.readEntries(0, handle.getLastAddConfirmed());
          while (entries.hasMoreElements()) {
            LedgerEntry entry = entries.nextElement();
            System.out.println("entry " + ledgerId + " " + entry.getEntryId() + " " + hex.formatHex(entry.getEntry()));
          }
        }
      }
    } else if (args[0].equals("write")) {
      BookKeeper.DigestType digest = BookKeeper.DigestType.valueOf(args[3]);
      LedgerHandle handle = bk.createLedger(Integer.parseInt(args[4]), Integer.parseInt(args[5]), Integer.parseInt(args[6]), digest, password);
      int count = Integer.parseInt(args[7]);
      for (int i = 0; i < count; i++) {
        byte[] payload = ("java-entry-" + i + "-" + "j".repeat(i * 17)).getBytes(StandardCharsets.UTF_8);
        long entryId = handle.addEntry(payload);
        System.out.println("entry " + handle.getId() + " " + entryId + " " + hex.formatHex(payload));
      }
      if (Boolean.parseBoolean(args[8])) handle.close();
      describe(handle);
      System.out.println("done");
      System.out.flush();
      Runtime.getRuntime().halt(0); // leave an unclosed ledger unclosed: no shutdown hooks, no client close
    }
    bk.close();
    System.out.println("done");
    System.out.flush();
    System.exit(0);
  }
}
