// js-libp2p 3 uses Promise.withResolvers, which Node 20 lacks (Node 22 has
// it). Loaded with `node --import ./polyfill.mjs`.
if (typeof Promise.withResolvers !== 'function') {
  Promise.withResolvers = function withResolvers () {
    let resolve, reject
    const promise = new Promise((res, rej) => { resolve = res; reject = rej })
    return { promise, resolve, reject }
  }
}
