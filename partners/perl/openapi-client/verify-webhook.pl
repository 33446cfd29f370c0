#!/usr/bin/perl
# Verifies a signed webhook with Digest::SHA: x-service-signature is `t=<unix>,v0=<hex>`, the hex an
# HMAC-SHA256 of `<t>.<raw body>` under the endpoint's secret. Exit 0 and print the event type when
# it verifies (and, for an event type the contract does not list, that it is ignored: a receiver
# answers 204 and moves on); exit 1 otherwise.
#   perl verify-webhook.pl <body file> <x-service-signature> <secret>
use strict;
use warnings;
use Digest::SHA qw(hmac_sha256_hex);
use JSON::PP qw(decode_json);

# The contract's webhooks: the event types this receiver handles. A later version of the service may
# send others.
my %known_event_types = map { ($_ => 1) } qw(
  payment_session_complete payment_token_updated payment_token.updated
  product_catalog.item.eligibility_updated
  dispute.created dispute.updated dispute.closed dispute.evidence_submitted
);

# Compares two strings in time that depends on their length only, not on where they differ.
sub equal_in_constant_time {
  my ($x, $y) = @_;
  return 0 unless length $x == length $y;
  my $diff = 0;
  $diff |= ord(substr $x, $_, 1) ^ ord(substr $y, $_, 1) for 0 .. length($x) - 1;
  return $diff == 0;
}

sub verify_webhook {
  my ($raw_body, $header, $secret, $tolerance) = @_;
  $tolerance //= 300;
  my ($t, @signatures);
  for my $part (split /,/, $header) {
    my ($key, $value) = split /=/, $part =~ s/^\s+|\s+$//gr, 2;
    next unless defined $value;
    $t = $value if $key eq 't';
    push @signatures, $value if $key eq 'v0';
  }
  return 0 unless defined $t && $t =~ /^\d+$/ && @signatures;
  return 0 if abs(time - $t) > $tolerance;
  my $expected = hmac_sha256_hex("$t.$raw_body", $secret);
  return scalar grep { equal_in_constant_time($expected, $_) } @signatures;
}

my ($body_file, $header, $secret) = @ARGV;
open my $fh, '<:raw', $body_file or die "$body_file: $!\n";
my $body = do { local $/; <$fh> };
close $fh;
unless (verify_webhook($body, $header // '', $secret // '')) {
  print STDERR "signature does not verify\n";
  exit 1;
}
my $event_type = decode_json($body)->{event_type};
print "verified $event_type\n";
print "ignored unknown event type $event_type\n" unless $known_event_types{$event_type};
