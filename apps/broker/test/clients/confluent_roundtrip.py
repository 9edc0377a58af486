"""confluent-kafka (librdkafka) client for the broker's integration tests.

produce <bootstrap> <topic> <count>: idempotent producer (enable.idempotence, acks=all), keyed messages with
  headers; prints one JSON object: delivered messages with partition/offset and any delivery errors.
consume <bootstrap> <topic> <group> <count>: a consumer group member reading from the earliest offset until
  <count> messages arrived; commits synchronously; prints the messages as JSON.
"""
import json
import sys
import time

from confluent_kafka import Consumer, KafkaError, Producer


def produce(bootstrap, topic, count):
    producer = Producer({
        "bootstrap.servers": bootstrap,
        "enable.idempotence": True,
        "acks": "all",
        "linger.ms": 5,
        "message.timeout.ms": 60000,
    })
    delivered = []
    errors = []

    def report(error, message):
        if error is not None:
            errors.append(str(error))
        else:
            delivered.append({"key": message.key().decode(), "partition": message.partition(), "offset": message.offset()})

    for index in range(count):
        key = "py-%d" % index
        producer.produce(topic, key=key, value=("value-%d-" % index) + "x" * (index % 97),
                         headers=[("index", str(index).encode()), ("lang", b"python")], on_delivery=report)
        producer.poll(0)
    remaining = producer.flush(60)
    print(json.dumps({"delivered": delivered, "errors": errors, "undelivered": remaining}))


def consume(bootstrap, topic, group, count):
    consumer = Consumer({
        "bootstrap.servers": bootstrap,
        "group.id": group,
        "auto.offset.reset": "earliest",
        "enable.auto.commit": False,
        "session.timeout.ms": 10000,
    })
    consumer.subscribe([topic])
    received = []
    deadline = time.time() + 90
    while len(received) < count and time.time() < deadline:
        message = consumer.poll(0.5)
        if message is None:
            continue
        if message.error() is not None:
            if message.error().code() == KafkaError._PARTITION_EOF:
                continue
            print(json.dumps({"error": str(message.error())}))
            sys.exit(1)
        received.append({
            "key": message.key().decode(),
            "value": message.value().decode(),
            "headers": [[name, value.decode()] for name, value in (message.headers() or [])],
            "partition": message.partition(),
            "offset": message.offset(),
        })
    consumer.commit(asynchronous=False)
    consumer.close()
    print(json.dumps({"received": received}))


if __name__ == "__main__":
    if sys.argv[1] == "produce":
        produce(sys.argv[2], sys.argv[3], int(sys.argv[4]))
    else:
        consume(sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]))
