import { AdminRequest, AdminResponse, type TopicResult } from '@tributary/wire/pb/protocol'
import type { HandlerContext } from './context.js'
import { decodeRequest, errorFields, InvalidRequestError } from './errors.js'

/** `/tributary/admin`: create, delete and reconfigure topics, each answered per topic. */
export function adminHandler(ctx: HandlerContext) {
  return async (bytes: Uint8Array): Promise<Uint8Array> => {
    const request = decodeRequest('admin', () => AdminRequest.decode(bytes))
    const results: TopicResult[] = []
    const attempt = async (name: string, fn: () => Promise<string | undefined>): Promise<void> => {
      try {
        results.push({ name, errorCode: 0, errorMessage: '', topicId: (await fn()) ?? '' })
      } catch (err) {
        results.push({ name, ...errorFields(err), topicId: '' })
      }
    }
    if (request.createTopics !== undefined) {
      if (request.createTopics.topics.length > 1000) throw new InvalidRequestError('at most 1,000 topics per request')
      for (const t of request.createTopics.topics) {
        await attempt(t.name, async () => {
          const view = await ctx.createTopic({
            name: t.name,
            partitions: t.partitions,
            replicationFactor: t.replicationFactor,
            configs: Object.fromEntries(t.configs),
          })
          return view.topicId
        })
      }
    } else if (request.deleteTopics !== undefined) {
      if (request.deleteTopics.names.length > 1000) throw new InvalidRequestError('at most 1,000 topics per request')
      for (const name of request.deleteTopics.names) {
        await attempt(name, async () => {
          await ctx.deleteTopic(name)
          return undefined
        })
      }
    } else if (request.alterConfigs !== undefined) {
      const { name, configs } = request.alterConfigs
      await attempt(name, async () => {
        await ctx.alterConfigs(name, Object.fromEntries(configs))
        return undefined
      })
    } else {
      throw new InvalidRequestError('admin request names no operation')
    }
    return AdminResponse.encode({ results })
  }
}
