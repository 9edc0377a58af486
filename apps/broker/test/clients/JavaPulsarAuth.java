// Apache Pulsar's Java clients (pulsar-client-original and pulsar-client-admin-original 4.2.4, the harness's
// "pulsar-client" Maven set) against a broker with token authentication and authorization on, compiled with javac
// at test time. Tokens are made by the test and passed in; every fact goes to stdout as one `KEY value...` line:
//   scenario service=<pulsar url> admin=<http url> topic=<persistent://t/ns/x> superToken= aliceToken=
//            expiredToken= wrongToken= count=<messages> [trustCerts=<pem file>]
//     refusals without a token, with an expired one and with one signed by another key (the exception class of
//     each); as the super user through PulsarAdmin: the tenant and namespace, `produce` granted to alice on the
//     namespace; alice produces, is refused a subscription, PulsarAdmin as alice is refused; `consume` granted to
//     alice on the topic, the permissions read back; alice consumes every message; with the namespace's
//     subscription auth mode Prefix, alice is refused a subscription not named alice-...; the namespace grant
//     revoked, alice's next producer is refused.
//   refresh service=<pulsar url> warmToken= tokenFile=<file> topic= durationMs= [trustCerts=<pem file>]
//     warms up (a producer with `warmToken` sends one message, so that the classes are loaded), prints STARTED and
//     waits for `tokenFile` to exist; a producer whose token is read from it on every connect and challenge prints
//     CONNECTED once created, then sends one message every 100 ms for `durationMs`: SENT, FAILED, how often the
//     token was read and whether the producer was ever disconnected.
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.apache.pulsar.client.admin.PulsarAdmin;
import org.apache.pulsar.client.admin.PulsarAdminBuilder;
import org.apache.pulsar.client.api.Authentication;
import org.apache.pulsar.client.api.AuthenticationFactory;
import org.apache.pulsar.client.api.Consumer;
import org.apache.pulsar.client.api.Message;
import org.apache.pulsar.client.api.Producer;
import org.apache.pulsar.client.api.PulsarClient;
import org.apache.pulsar.client.api.ClientBuilder;
import org.apache.pulsar.client.api.SubscriptionInitialPosition;
import org.apache.pulsar.common.naming.TopicName;
import org.apache.pulsar.common.policies.data.AuthAction;
import org.apache.pulsar.common.policies.data.SubscriptionAuthMode;
import org.apache.pulsar.common.policies.data.TenantInfo;

public final class JavaPulsarAuth {
  private JavaPulsarAuth() {}

  /** A step expected to fail: its failure becomes a line naming the exception class. */
  @FunctionalInterface
  private interface Step {
    void run() throws Exception;
  }

  public static void main(String[] args) throws Exception {
    Map<String, String> options = new TreeMap<>();
    for (String arg : args) {
      int at = arg.indexOf('=');
      if (at > 0) options.put(arg.substring(0, at), arg.substring(at + 1));
    }
    if ("refresh".equals(args[0])) refresh(options);
    else scenario(options);
    System.out.flush();
    System.exit(0);
  }

  private static void scenario(Map<String, String> options) throws Exception {
    String topic = options.get("topic");
    TopicName name = TopicName.get(topic);
    String namespace = name.getNamespace();
    int count = Integer.parseInt(options.get("count"));

    refused("NO_TOKEN", options, null, topic);
    refused("EXPIRED_TOKEN", options, options.get("expiredToken"), topic);
    refused("WRONG_KEY_TOKEN", options, options.get("wrongToken"), topic);

    try (PulsarAdmin admin = admin(options, options.get("superToken"));
        PulsarClient alice = client(options, AuthenticationFactory.token(options.get("aliceToken")));
        PulsarAdmin aliceAdmin = admin(options, options.get("aliceToken"))) {
      admin.tenants().createTenant(name.getTenant(),
          TenantInfo.builder().allowedClusters(Set.copyOf(admin.clusters().getClusters())).build());
      admin.namespaces().createNamespace(namespace);
      admin.namespaces().grantPermissionOnNamespace(namespace, "alice", Set.of(AuthAction.produce));
      try (Producer<byte[]> producer = alice.newProducer().topic(topic).enableBatching(false).create()) {
        for (int index = 0; index < count; index += 1) {
          producer.send(("message-" + index).getBytes(StandardCharsets.UTF_8));
        }
        say("SENT", count);
      }
      expectFailure("SUBSCRIBE_WITHOUT_CONSUME",
          () -> alice.newConsumer().topic(topic).subscriptionName("audit").subscribe().close());
      expectFailure("ADMIN_AS_ALICE", () -> aliceAdmin.tenants().getTenants());

      admin.topics().grantPermission(topic, "alice", Set.of(AuthAction.consume));
      say("NAMESPACE_PERMISSIONS", permissions(admin.namespaces().getPermissions(namespace)));
      say("TOPIC_PERMISSIONS", permissions(admin.topics().getPermissions(topic)));
      try (Consumer<byte[]> consumer = alice.newConsumer().topic(topic).subscriptionName("audit")
          .subscriptionInitialPosition(SubscriptionInitialPosition.Earliest).subscribe()) {
        int received = 0;
        while (received < count) {
          Message<byte[]> message = consumer.receive(10, TimeUnit.SECONDS);
          if (message == null) break;
          consumer.acknowledge(message);
          received += 1;
        }
        say("RECEIVED", received);
      }

      admin.namespaces().setSubscriptionAuthMode(namespace, SubscriptionAuthMode.Prefix);
      say("SUBSCRIPTION_AUTH_MODE", admin.namespaces().getSubscriptionAuthMode(namespace));
      expectFailure("SUBSCRIBE_WITHOUT_ROLE_PREFIX",
          () -> alice.newConsumer().topic(topic).subscriptionName("audit").subscribe().close());
      try (Consumer<byte[]> consumer = alice.newConsumer().topic(topic).subscriptionName("alice-audit").subscribe()) {
        say("SUBSCRIBED_WITH_ROLE_PREFIX", consumer.getSubscription());
      }

      admin.namespaces().revokePermissionsOnNamespace(namespace, "alice");
      expectFailure("PRODUCE_AFTER_REVOKE", () -> alice.newProducer().topic(topic).create().close());
    }
  }

  private static void refresh(Map<String, String> options) throws Exception {
    Path tokenFile = Path.of(options.get("tokenFile"));
    AtomicInteger reads = new AtomicInteger();
    Supplier<String> token = () -> {
      try {
        reads.incrementAndGet();
        return Files.readString(tokenFile).trim();
      } catch (Exception error) {
        throw new IllegalStateException(error);
      }
    };
    try (PulsarClient warm = client(options, AuthenticationFactory.token(options.get("warmToken")));
        Producer<byte[]> producer = warm.newProducer().topic(options.get("topic") + "-warm").create()) {
      producer.send(new byte[] {1});
    }
    say("STARTED", tokenFile);
    for (long waited = 0; !Files.exists(tokenFile) && waited < 60_000; waited += 20) Thread.sleep(20);
    int sent = 0;
    int failed = 0;
    try (PulsarClient client = client(options, AuthenticationFactory.token(token));
        Producer<byte[]> producer = client.newProducer().topic(options.get("topic"))
            .enableBatching(false).sendTimeout(3, TimeUnit.SECONDS).create()) {
      say("CONNECTED", reads.get());
      long end = System.currentTimeMillis() + Long.parseLong(options.get("durationMs"));
      while (System.currentTimeMillis() < end) {
        try {
          producer.send(("at-" + System.currentTimeMillis()).getBytes(StandardCharsets.UTF_8));
          sent += 1;
        } catch (Exception error) {
          failed += 1;
          say("SEND_FAILED", error.getClass().getSimpleName());
        }
        Thread.sleep(100);
      }
      say("SENT", sent);
      say("FAILED", failed);
      say("TOKEN_READS", reads.get());
      say("DISCONNECTED", producer.getLastDisconnectedTimestamp() > 0);
    }
  }

  /** A client with `token` (none when null) tries to produce to `topic`; the refusal's class. */
  private static void refused(String what, Map<String, String> options, String token, String topic)
      throws Exception {
    Authentication authentication =
        token == null ? AuthenticationFactory.create("org.apache.pulsar.client.impl.auth.AuthenticationDisabled", "")
            : AuthenticationFactory.token(token);
    try (PulsarClient client = client(options, authentication)) {
      expectFailure(what, () -> client.newProducer().topic(topic).create().close());
    }
  }

  private static PulsarClient client(Map<String, String> options, Authentication authentication)
      throws Exception {
    ClientBuilder builder = PulsarClient.builder().serviceUrl(options.get("service")).authentication(authentication)
        .operationTimeout(8, TimeUnit.SECONDS).connectionTimeout(5, TimeUnit.SECONDS);
    String trust = options.get("trustCerts");
    if (trust != null) builder.tlsTrustCertsFilePath(trust).enableTlsHostnameVerification(true);
    return builder.build();
  }

  private static PulsarAdmin admin(Map<String, String> options, String token) throws Exception {
    PulsarAdminBuilder builder = PulsarAdmin.builder().serviceHttpUrl(options.get("admin"))
        .authentication(AuthenticationFactory.token(token));
    return builder.build();
  }

  /** `role=action+action,...`, sorted. */
  private static String permissions(Map<String, Set<AuthAction>> permissions) {
    StringBuilder text = new StringBuilder();
    for (Map.Entry<String, Set<AuthAction>> entry : new TreeMap<>(permissions).entrySet()) {
      if (text.length() > 0) text.append(',');
      text.append(entry.getKey()).append('=');
      text.append(String.join("+", entry.getValue().stream().map(AuthAction::name).sorted().toList()));
    }
    return text.toString();
  }

  private static void expectFailure(String what, Step step) {
    try {
      step.run();
      say("UNEXPECTED_SUCCESS", what);
    } catch (Exception error) {
      say(what, error.getClass().getSimpleName());
    }
  }

  private static void say(String key, Object value) {
    System.out.println(key + " " + value);
  }
}
