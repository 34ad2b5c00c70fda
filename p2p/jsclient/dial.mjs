// An independent libp2p client (js-libp2p) for Salvo's interop test: it
// dials a Salvo peer over TCP, runs identify and ping, and reads the
// peer's /salvo/info/1 answer (one uvarint-length-prefixed JSON frame,
// the go-msgio format). It prints one JSON line with what it found and
// exits 0, or prints the error and exits 1.
//
//   node --import ./polyfill.mjs dial.mjs /ip4/127.0.0.1/tcp/PORT/p2p/12D3Koo...
import { createLibp2p } from 'libp2p'
import { tcp } from '@libp2p/tcp'
import { noise } from '@chainsafe/libp2p-noise'
import { yamux } from '@chainsafe/libp2p-yamux'
import { identify } from '@libp2p/identify'
import { ping } from '@libp2p/ping'
import { lpStream } from '@libp2p/utils'
import { multiaddr } from '@multiformats/multiaddr'

const target = process.argv[2]
if (!target) {
  console.error('usage: dial.mjs MULTIADDR')
  process.exit(2)
}

const node = await createLibp2p({
  transports: [tcp()],
  connectionEncrypters: [noise()],
  streamMuxers: [yamux()],
  services: { identify: identify(), ping: ping() }
})

try {
  const ma = multiaddr(target)
  const t0 = performance.now()
  const conn = await node.dial(ma, { signal: AbortSignal.timeout(10000) })
  const connectMs = performance.now() - t0

  // identify runs on connect; wait (up to 10 s) until its answer is in:
  // the agent version comes only with it. The protocol list alone is not
  // a sign: the Go peer's own identify stream to us puts /ipfs/id/1.0.0
  // there first, and on a loaded machine that came before our answer.
  let peer = null
  for (let i = 0; i < 500; i++) {
    peer = await node.peerStore.get(conn.remotePeer).catch(() => null)
    if (peer?.metadata?.get('AgentVersion')) break
    await new Promise(resolve => setTimeout(resolve, 20))
  }
  const protocols = peer?.protocols ?? []
  const agentBytes = peer?.metadata?.get('AgentVersion')
  const agent = agentBytes ? new TextDecoder().decode(agentBytes) : ''

  const rtts = []
  for (let i = 0; i < 3; i++) rtts.push(await node.services.ping.ping(conn.remotePeer, { signal: AbortSignal.timeout(5000) }))

  const stream = await conn.newStream('/salvo/info/1', { signal: AbortSignal.timeout(5000) })
  const lp = lpStream(stream, { maxDataLength: 1024 })
  const frame = await lp.read({ signal: AbortSignal.timeout(5000) })
  const info = JSON.parse(new TextDecoder().decode(frame.subarray()))
  await stream.close().catch(() => {})

  console.log(JSON.stringify({ peer: conn.remotePeer.toString(), connectMs, agent, protocols, rtts, info }))
  await node.stop()
  process.exit(0)
} catch (err) {
  console.error('dial failed:', err?.stack ?? err)
  await node.stop().catch(() => {})
  process.exit(1)
}
