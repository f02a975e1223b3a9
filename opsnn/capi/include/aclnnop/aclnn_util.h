/* opsnn: the export macro the generated operator headers (aclnnop/aclnn_<op>.h) use. */
#ifndef OPSNN_ACLNN_UTIL_H_
#define OPSNN_ACLNN_UTIL_H_

#ifndef ACLNN_API
#define ACLNN_API __attribute__((visibility("default")))
#endif

#endif /* OPSNN_ACLNN_UTIL_H_ */
