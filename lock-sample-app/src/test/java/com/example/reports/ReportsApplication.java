package com.example.reports;

import java.time.Instant;

import io.distlock.core.CurrentLease;
import io.distlock.core.Lease;
import io.distlock.core.SlotExecution;
import io.distlock.spring.DistributedLock;
import io.distlock.spring.OncePerSlot;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;
import org.springframework.stereotype.Service;

@SpringBootApplication
@EnableScheduling
public class ReportsApplication {

    public static void main(String[] args) {
        SpringApplication.run(ReportsApplication.class, args);
    }
}

@Component
class HourlyReport {

    @Scheduled(cron = "0 0 * * * *")
    @OncePerSlot(job = "hourly-report")          // every hour runs exactly once across all replicas
    public void run() {
        Lease lease = CurrentLease.require();     // fencing token for the report's writes: lease.token()
        Instant hour = SlotExecution.current().orElseThrow().slot();   // the fire time this run is for
        // … build the report for that hour
    }
}

@Service
class Exports {

    @DistributedLock(resource = "export:#{#customer}", ttl = "PT5M")   // one export per customer at a time
    public void export(String customer) {
        // … export the customer's data: no other replica runs this for the same customer meanwhile
    }
}
